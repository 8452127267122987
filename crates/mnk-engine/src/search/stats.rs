//! Where a search's nodes go: counters of the tree search, its horizon, its re-searches, its
//! table and its move ordering, compiled in only with the `stats` feature (the `node_profile`
//! example reads them; docs/strength.md, "Where the nodes go").
//!
//! Without the feature the [`stat!`] macro expands to nothing and this module holds only the
//! empty shapes, so the ordinary build searches exactly as before, at the same speed. The
//! counters are one thread's (a thread-local), which is what a one-thread search needs.

/// Deepest ply counted one by one; deeper plies are counted at the last.
pub const PLIES: usize = 64;

/// What the counters of one or more searches add up to.
#[derive(Clone, Debug)]
pub struct Counters {
    /// Nodes of the tree search (`negamax`) by ply from the root.
    pub main_by_ply: [u64; PLIES],
    /// Horizon nodes (`quiesce`), its forced blocks included.
    pub quiesce: u64,
    /// Nodes of the VCF tried at the horizon.
    pub horizon_vcf: u64,
    /// VCFs tried at the horizon, and how many found a win.
    pub horizon_vcf_tries: u64,
    /// See [`Counters::horizon_vcf_tries`].
    pub horizon_vcf_wins: u64,
    /// Nodes of the root threat searches (VCF, VCT, the opponent's VCF).
    pub root_threats: u64,
    /// Nodes of re-searches, each counted only outside any other re-search: a reduced move
    /// searched again at full depth (LMR), a null-window move searched again with the full
    /// window (PVS), an iteration's root searched again after its window failed (aspiration).
    pub lmr_research: u64,
    /// See [`Counters::lmr_research`].
    pub pvs_research: u64,
    /// See [`Counters::lmr_research`].
    pub aspiration_research: u64,
    /// Re-searches started (any kind, nested ones included).
    pub researches: u64,
    /// Iterations searched with an aspiration window, and how often their window failed low
    /// and high.
    pub aspirated: u64,
    /// See [`Counters::aspirated`].
    pub fails_low: u64,
    /// See [`Counters::aspirated`].
    pub fails_high: u64,
    /// Re-searches nested inside another under way.
    nesting: u32,
    /// Table probes of the tree search, entries found, and cut-offs they gave.
    pub tt_probes: u64,
    /// See [`Counters::tt_probes`].
    pub tt_hits: u64,
    /// See [`Counters::tt_probes`].
    pub tt_cuts: u64,
    /// Nodes decided by the threat counts alone, and by reverse futility.
    pub threat_decided: u64,
    /// See [`Counters::threat_decided`].
    pub reverse_futility: u64,
    /// Singular-extension searches, and how many found their table move singular.
    pub singular_tries: u64,
    /// See [`Counters::singular_tries`].
    pub singular: u64,
    /// Nodes that searched moves, moves they generated and moves they searched.
    pub expanded: u64,
    /// See [`Counters::expanded`].
    pub moves_generated: u64,
    /// See [`Counters::expanded`].
    pub moves_searched: u64,
    /// Moves skipped by late-move pruning and by futility.
    pub lmp_skips: u64,
    /// See [`Counters::lmp_skips`].
    pub futility_skips: u64,
    /// Moves searched reduced (LMR), and those of them searched again.
    pub reduced: u64,
    /// See [`Counters::reduced`].
    pub reduced_failed: u64,
    /// Nodes that cut off (beta), those that did so on their first move, and the sum of the
    /// cutting moves' numbers (counted from 1).
    pub cut_nodes: u64,
    /// See [`Counters::cut_nodes`].
    pub first_move_cuts: u64,
    /// See [`Counters::cut_nodes`].
    pub cut_move_sum: u64,
}

impl Default for Counters {
    fn default() -> Self {
        Counters {
            main_by_ply: [0; PLIES],
            quiesce: 0,
            horizon_vcf: 0,
            horizon_vcf_tries: 0,
            horizon_vcf_wins: 0,
            root_threats: 0,
            lmr_research: 0,
            pvs_research: 0,
            aspiration_research: 0,
            researches: 0,
            aspirated: 0,
            fails_low: 0,
            fails_high: 0,
            nesting: 0,
            tt_probes: 0,
            tt_hits: 0,
            tt_cuts: 0,
            threat_decided: 0,
            reverse_futility: 0,
            singular_tries: 0,
            singular: 0,
            expanded: 0,
            moves_generated: 0,
            moves_searched: 0,
            lmp_skips: 0,
            futility_skips: 0,
            reduced: 0,
            reduced_failed: 0,
            cut_nodes: 0,
            first_move_cuts: 0,
            cut_move_sum: 0,
        }
    }
}

/// A kind of re-search.
#[derive(Clone, Copy, Debug)]
pub enum Research {
    /// A reduced move searched again at full depth.
    Lmr,
    /// A null-window move searched again with the full window.
    Pvs,
    /// An iteration's root searched again after its window failed.
    Aspiration,
}

impl Counters {
    /// Nodes of the tree search.
    #[must_use]
    pub fn main(&self) -> u64 {
        self.main_by_ply.iter().sum()
    }

    /// Adds `other` to these counters.
    pub fn add(&mut self, other: &Counters) {
        for (a, b) in self.main_by_ply.iter_mut().zip(&other.main_by_ply) {
            *a += b;
        }
        macro_rules! sum {
            ($($f:ident),*) => { $(self.$f += other.$f;)* };
        }
        sum!(
            quiesce,
            horizon_vcf,
            horizon_vcf_tries,
            horizon_vcf_wins,
            root_threats,
            lmr_research,
            pvs_research,
            aspiration_research,
            researches,
            aspirated,
            fails_low,
            fails_high,
            tt_probes,
            tt_hits,
            tt_cuts,
            threat_decided,
            reverse_futility,
            singular_tries,
            singular,
            expanded,
            moves_generated,
            moves_searched,
            lmp_skips,
            futility_skips,
            reduced,
            reduced_failed,
            cut_nodes,
            first_move_cuts,
            cut_move_sum
        );
    }

    /// A re-search starts with the node count at `nodes`: the count to pass to
    /// [`Counters::end_research`], `None` when nested inside another.
    pub fn begin_research(&mut self, nodes: u64) -> Option<u64> {
        self.researches += 1;
        self.nesting += 1;
        (self.nesting == 1).then_some(nodes)
    }

    /// The re-search begun at `start` (from [`Counters::begin_research`]) ends with the node
    /// count at `nodes`.
    pub fn end_research(&mut self, kind: Research, start: Option<u64>, nodes: u64) {
        self.nesting -= 1;
        if let Some(start) = start {
            let spent = nodes - start;
            match kind {
                Research::Lmr => self.lmr_research += spent,
                Research::Pvs => self.pvs_research += spent,
                Research::Aspiration => self.aspiration_research += spent,
            }
        }
    }
}

#[cfg(feature = "stats")]
thread_local! {
    static COUNTERS: std::cell::RefCell<Counters> = std::cell::RefCell::new(Counters::default());
}

/// Applies `f` to this thread's counters.
#[cfg(feature = "stats")]
pub fn record<T>(f: impl FnOnce(&mut Counters) -> T) -> T {
    COUNTERS.with(|c| f(&mut c.borrow_mut()))
}

/// This thread's counters since the last call, which clears them.
#[cfg(feature = "stats")]
#[must_use]
pub fn take() -> Counters {
    COUNTERS.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

/// `stat!(c => c.field += 1)`: with the `stats` feature, applies the expression to this
/// thread's [`Counters`] as `c`; without it, nothing (the expression is not compiled).
macro_rules! stat {
    ($c:ident => $body:expr) => {
        #[cfg(feature = "stats")]
        {
            $crate::search::stats::record(|$c| $body);
        }
    };
}
pub(crate) use stat;

/// `spent!(ctl, field, expr)`: evaluates `expr` and, with the `stats` feature, adds the nodes
/// `ctl` counted meanwhile to the counter `field`.
macro_rules! spent {
    ($ctl:expr, $field:ident, $e:expr) => {{
        #[cfg(feature = "stats")]
        let start = $ctl.nodes();
        let value = $e;
        $crate::search::stats::stat!(c => c.$field += $ctl.nodes() - start);
        value
    }};
}
pub(crate) use spent;

/// `research!(ctl, Kind, expr)`: evaluates `expr`, a re-search of kind [`Research`]`::Kind`,
/// and with the `stats` feature counts it and the nodes `ctl` counted meanwhile.
macro_rules! research {
    ($ctl:expr, $kind:ident, $e:expr) => {{
        #[cfg(feature = "stats")]
        let start = {
            let n = $ctl.nodes();
            $crate::search::stats::record(|c| c.begin_research(n))
        };
        let value = $e;
        #[cfg(feature = "stats")]
        {
            let n = $ctl.nodes();
            $crate::search::stats::record(|c| {
                c.end_research($crate::search::stats::Research::$kind, start, n);
            });
        }
        value
    }};
}
pub(crate) use research;
