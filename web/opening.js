// Swap openings in the page: the choice panel and the words for each step. The opener places
// three stones (black, white, black); the one choosing takes a colour or, in swap2, places two
// more stones and lets the opener choose. The server says whose step it is (the `opening` of a
// position's state); play.js plays the stones and the computer's part, this module offers the
// person choosing their options, beside the board so the position can be studied first. In a
// room the server keeps the opening: the panel shows to the seat that chooses, and room.js sends
// the decision.

import { t } from './i18n.js';
import { other } from './notation.js';
import { chooseInOpening } from './play.js';
import { inRoom, roomDecide } from './room.js';
import { humanChooses, openingStep, store } from './store.js';
import { seatName } from './view.js';

const $ = (id) => document.getElementById(id);

/** The colour a decision gives its maker: black is the first player's. */
function colourOf(decision) {
  const first = store.rules.first || 'X';
  return decision === 'black' ? first : other(first);
}

/** The label of a decision's button. */
function optionLabel(decision) {
  if (decision === 'place-two') return t('openingOptionPlaceTwo');
  const p = colourOf(decision);
  return t(decision === 'white' ? 'openingOptionWhite' : 'openingOptionBlack', { p });
}

/**
 * On a phone the panel is fixed at the bottom of the screen (style.css): the page gets as much
 * room below its end, so that nothing stays under the panel.
 */
function makeRoomBelow(panel) {
  const fixed = !panel.hidden && getComputedStyle(panel).position === 'fixed';
  document.body.style.paddingBottom = fixed ? `${panel.offsetHeight + 16}px` : '';
}

/** Shows the choice panel while the person shown may choose, with the options of the step. */
export function renderOpening() {
  const panel = $('swap');
  const show = humanChooses();
  panel.hidden = !show;
  if (!show) {
    makeRoomBelow(panel);
    return;
  }
  const step = openingStep();
  $('swap-title').textContent = t('openingChooseTitle', { who: seatName(step.seat) });
  $('swap-text').textContent = t(step.options.includes('place-two') ? 'openingChooseSwap2' : 'openingChooseSwap', {
    black: colourOf('black'),
    white: colourOf('white'),
  });
  const key = step.options.join(' ');
  if (panel.dataset.options === key) {
    makeRoomBelow(panel);
    return;
  }
  panel.dataset.options = key;
  $('swap-options').replaceChildren(
    ...step.options.map((decision) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.id = `swap-${decision}`;
      button.textContent = optionLabel(decision);
      button.addEventListener('click', () => (inRoom() ? roomDecide(decision) : chooseInOpening(decision)));
      return button;
    }),
  );
  makeRoomBelow(panel);
}

/** Re-labels the panel's buttons (a language switch). */
export function relabelOpening() {
  delete $('swap').dataset.options;
  renderOpening();
}
