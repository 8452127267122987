// The move tree of the page (web/tree.js) on its own, without a browser: variations, the line
// followed by forward/end, taking back, and the text form used in links.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MoveTree } from '../../web/tree.js';

describe('move tree', () => {
  test('playing from an earlier position makes a variation, not a lost future', () => {
    const tree = MoveTree.fromMoves(['h8', 'i9', 'j10']);
    tree.goto(tree.nodeAt(1));
    tree.play('h9');
    assert.deepEqual(tree.moves, ['h8', 'h9']);
    assert.deepEqual(tree.lineMoves(), ['h8', 'h9']);
    const first = tree.nodeAt(1);
    assert.deepEqual(first.children.map((c) => c.move), ['i9', 'h9']);
    // Switching back to the old variation restores its whole future.
    tree.goto(first.children[0]);
    assert.deepEqual(tree.lineMoves(), ['h8', 'i9', 'j10']);
    assert.equal(tree.ply, 2);
    assert.equal(tree.end().move, 'j10');
    // Playing a move tried before follows it instead of adding a copy.
    tree.goto(first);
    tree.play('h9');
    assert.equal(first.children.length, 2);
    assert.ok(tree.hasVariations());
  });

  test('the text form round-trips variations and nested variations', () => {
    const tree = MoveTree.fromMoves(['h8', 'i9', 'j10', 'k11']);
    tree.goto(tree.nodeAt(1));
    tree.play('h9');
    tree.play('g7');
    tree.goto(tree.nodeAt(2));
    tree.play('g8');
    tree.goto(tree.root);
    tree.play('-3,5');
    const text = tree.toText();
    assert.equal(text, 'h8(-3,5).i9(h9.g7(g8)).j10.k11');
    const back = MoveTree.fromText(text);
    assert.equal(back.toText(), text);
    assert.deepEqual(back.root.children.map((c) => c.move), ['h8', '-3,5']);
    assert.deepEqual(back.nodeAt(1).children.map((c) => c.move), ['i9', 'h9']);
  });

  test('malformed text is refused', () => {
    for (const bad of ['h8..i9', '(h8)', 'h8(', 'h8)', 'h8.', '.h8', 'h8((i9))']) {
      assert.equal(MoveTree.fromText(bad), null, bad);
    }
    assert.equal(MoveTree.fromText('').root.children.length, 0);
  });

  test('what is wrong with malformed text is said', () => {
    const cases = { 'h8.i9(j10.k11': 'open', 'h8(i9': 'open', 'h8)': 'close', 'h8.i9)(j10)': 'close', 'h8..i9': 'empty', 'h8.': 'empty', '.h8': 'empty', 'h8()': 'empty', '(h8)': 'start', 'h8(i9)j10': 'dot' };
    for (const [bad, error] of Object.entries(cases)) assert.deepEqual(MoveTree.readText(bad), { error }, bad);
    assert.equal(MoveTree.readText('h8.i9(j10.k11)').tree.toText(), 'h8.i9(j10.k11)');
  });

  test('taking back removes the moves and keeps the other variations', () => {
    const tree = MoveTree.fromMoves(['a1', 'b2']);
    tree.goto(tree.nodeAt(1));
    tree.play('c3');
    tree.remove(tree.cursor);
    assert.deepEqual(tree.moves, ['a1']);
    assert.deepEqual(tree.lineMoves(), ['a1', 'b2']);
    tree.remove(tree.nodeAt(1));
    assert.equal(tree.ply, 0);
    assert.equal(tree.root.children.length, 0);
  });
});
