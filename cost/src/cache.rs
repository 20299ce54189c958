//! The cache rules: which tokens of a request a provider reads from its
//! prompt cache and which it writes, given the session's earlier requests.
//!
//! Both rules assume every request comes within the cache's lifetime of the
//! one before (Anthropic: 5 minutes, refreshed by each hit; OpenAI: 5 to 10
//! minutes of inactivity), as the turns of an agent loop do: nothing expires.
//!
//! **Breakpoints** (Anthropic, platform.claude.com/docs/en/build-with-claude/
//! prompt-caching): a request caches the prefix ending at each of its
//! breakpoints (`cache_control`) that is at least `min_cached_tokens` long.
//! A later request hits such an entry only when its prefix up to a block
//! boundary is identical to the entry's, and that boundary is one of its own
//! breakpoints or at most `lookback_blocks` boundaries before one ("the
//! system automatically checks for cache hits at all previous content block
//! boundaries, up to about 20 blocks before your explicit breakpoint"). The
//! longest hit is read; the tokens from there to the last breakpoint that is
//! written are written; the rest is plain input.
//!
//! **Prefix** (OpenAI, developers.openai.com/api/docs/guides/prompt-caching:
//! "cache hits are only possible for exact prefix matches", "enabled for
//! prompts that are 1024 tokens or longer", hits "in increments of 128
//! tokens"): the longest prefix the request shares with any earlier request,
//! in tokens, rounded down to `min_cached_tokens + k × granularity`, none
//! below `min_cached_tokens`. Writes are free and not reported, unless the
//! model prices them: then the request's own cacheable length beyond the
//! read is written.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Bound;
use std::sync::Arc;

use crate::wire::{common_len, Request};

/// Tokens a request reads from and writes to the cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hit {
    pub read: u64,
    pub write: u64,
}

/// The breakpoints rule's memory: the prefixes earlier requests wrote.
#[derive(Debug, Clone)]
pub(crate) struct BreakpointCache {
    min_cached_tokens: u64,
    lookback_blocks: usize,
    written: HashSet<u64>,
}

impl BreakpointCache {
    pub fn new(min_cached_tokens: u64, lookback_blocks: usize) -> BreakpointCache {
        BreakpointCache { min_cached_tokens, lookback_blocks, written: HashSet::new() }
    }

    /// Accounts one request (its breakpoints already chosen as sent) and
    /// remembers what it writes.
    pub fn request(&mut self, req: &Request) -> Hit {
        let segs = &req.segments;
        // Identity and length of the prefix ending at each block boundary.
        let mut prefix = Vec::with_capacity(segs.len());
        let mut end = Vec::with_capacity(segs.len());
        let (mut id, mut tokens) = (0u64, 0u64);
        for s in segs {
            let mut h = DefaultHasher::new();
            (id, s.id).hash(&mut h);
            id = h.finish();
            tokens += s.tokens;
            prefix.push(id);
            end.push(tokens);
        }
        let breakpoints: Vec<usize> = (0..segs.len()).filter(|&i| segs[i].breakpoint).collect();
        let read = breakpoints
            .iter()
            .filter_map(|&p| {
                let lowest = p.saturating_sub(self.lookback_blocks);
                (lowest..=p).rev().find(|&j| self.written.contains(&prefix[j])).map(|j| end[j])
            })
            .max()
            .unwrap_or(0);
        let cached: Vec<usize> = breakpoints.into_iter().filter(|&p| end[p] >= self.min_cached_tokens).collect();
        let write = cached.last().map_or(0, |&p| end[p].saturating_sub(read));
        self.written.extend(cached.iter().map(|&p| prefix[p]));
        Hit { read, write }
    }
}

/// The prefix rule's memory: every earlier request as a path in a trie of
/// pieces (by content identity), pieces' texts interned. A request walks
/// the trie once, so accounting one costs what the request holds, not what
/// the session sent before it.
#[derive(Debug, Clone)]
pub(crate) struct PrefixCache {
    min_cached_tokens: u64,
    granularity: u64,
    prices_writes: bool,
    /// Node 0 is the empty prefix; every other node a prefix some earlier
    /// request had.
    nodes: Vec<PrefixNode>,
    /// Whether any request was accounted.
    any: bool,
    texts: HashMap<u64, Arc<str>>,
}

/// One prefix of earlier requests.
#[derive(Debug, Default, Clone)]
struct PrefixNode {
    /// The node of each piece that followed this prefix, by piece identity.
    children: HashMap<u64, usize>,
    /// The texts of those pieces, sorted: the one that shares the most with
    /// a new piece at their start sits next to it in this order.
    next_texts: BTreeSet<Arc<str>>,
    /// Whether an earlier request ended with this prefix.
    ends: bool,
}

impl PrefixCache {
    pub fn new(min_cached_tokens: u64, granularity: u64, prices_writes: bool) -> PrefixCache {
        PrefixCache {
            min_cached_tokens,
            granularity,
            prices_writes,
            nodes: vec![PrefixNode::default()],
            any: false,
            texts: HashMap::new(),
        }
    }

    /// Cached length of a shared prefix of `tokens` tokens.
    fn cacheable(&self, tokens: u64) -> u64 {
        if tokens < self.min_cached_tokens {
            0
        } else {
            tokens - (tokens - self.min_cached_tokens) % self.granularity
        }
    }

    /// Accounts one request and remembers it. `shared` gives the tokens two
    /// differing pieces share at their start (the first piece that differs
    /// from the best earlier request).
    pub fn request(&mut self, req: &Request, shared: impl FnOnce(&str, &str) -> u64) -> Hit {
        let segs = &req.segments;
        // The longest run of whole pieces some earlier request starts with.
        let (mut node, mut k) = (0, 0);
        while let Some(&child) = segs.get(k).and_then(|s| self.nodes[node].children.get(&s.id)) {
            (node, k) = (child, k + 1);
        }
        let mut longest = 0;
        if self.any {
            longest = segs[..k].iter().map(|s| s.tokens).sum::<u64>();
            let identical = segs.len() == k && self.nodes[node].ends;
            if identical {
                longest += req.trailing_tokens;
            } else if let Some(Some(mine)) = segs.get(k).map(|s| s.text.as_deref()) {
                // Among the earlier requests sharing `k` whole pieces, the one
                // whose next piece shares the most text with ours: a
                // neighbour of ours in byte order.
                let texts = &self.nodes[node].next_texts;
                let below = texts.range::<str, _>((Bound::Unbounded, Bound::Excluded(mine))).next_back();
                let above = texts.range::<str, _>((Bound::Included(mine), Bound::Unbounded)).next();
                let theirs = [below, above].into_iter().flatten().max_by_key(|t| common_len(mine, t));
                if let Some(theirs) = theirs.filter(|t| common_len(mine, t) > 0) {
                    longest += shared(mine, theirs);
                }
            }
        }
        let read = self.cacheable(longest);
        let write = if self.prices_writes { self.cacheable(req.prompt_tokens()).saturating_sub(read) } else { 0 };
        self.remember(req);
        Hit { read, write }
    }

    /// Adds `req`'s path to the trie.
    fn remember(&mut self, req: &Request) {
        self.any = true;
        let mut node = 0;
        for s in &req.segments {
            node = match self.nodes[node].children.get(&s.id) {
                Some(&child) => child,
                None => {
                    let child = self.nodes.len();
                    self.nodes.push(PrefixNode::default());
                    let parent = &mut self.nodes[node];
                    parent.children.insert(s.id, child);
                    if let Some(t) = &s.text {
                        parent.next_texts.insert(self.texts.entry(s.id).or_insert_with(|| t.clone()).clone());
                    }
                    child
                }
            };
        }
        self.nodes[node].ends = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{choose_breakpoints, Segment};

    /// A request of blocks `(id, tokens)` with breakpoints on `marked` as the
    /// Anthropic backend sends them (at most 4; none marked: the last block).
    fn blocks(blocks: &[(u64, u64)], marked: &[usize]) -> Request {
        let mut segments: Vec<Segment> =
            blocks.iter().map(|&(id, tokens)| Segment { id, tokens, breakpoint: false, text: None }).collect();
        for i in choose_breakpoints(marked, 0, segments.len(), 4) {
            segments[i].breakpoint = true;
        }
        Request { segments, trailing_tokens: 4 }
    }

    fn anthropic() -> BreakpointCache {
        BreakpointCache::new(1024, 20)
    }

    fn hit(read: u64, write: u64) -> Hit {
        Hit { read, write }
    }

    // A ptc prompt: system prompt 1,200 tokens, mission 300, turn info 10.
    const SYSTEM: (u64, u64) = (1, 1200);
    const MISSION: (u64, u64) = (2, 300);
    const TURN_INFO: (u64, u64) = (3, 10);

    #[test]
    fn breakpoints_first_turn_writes_everything_up_to_the_breakpoint() {
        let mut c = anthropic();
        // Automatic breakpoint on the last block: 1,200 + 300 + 10 written,
        // the 4 closing tokens are plain input.
        assert_eq!(c.request(&blocks(&[SYSTEM, MISSION, TURN_INFO], &[])), hit(0, 1510));
    }

    #[test]
    fn breakpoints_identical_prompt_reads_everything() {
        let mut c = anthropic();
        let req = blocks(&[SYSTEM, MISSION, TURN_INFO], &[]);
        c.request(&req);
        assert_eq!(c.request(&req), hit(1510, 0));
    }

    #[test]
    fn breakpoints_change_in_the_first_message_invalidates_everything_after_it() {
        let mut c = anthropic();
        c.request(&blocks(&[SYSTEM, MISSION, TURN_INFO], &[0, 2]));
        assert_eq!(c.request(&blocks(&[(9, 1200), MISSION, TURN_INFO], &[0, 2])), hit(0, 1510));
    }

    #[test]
    fn breakpoints_a_change_after_a_written_breakpoint_keeps_the_prefix() {
        let mut c = anthropic();
        c.request(&blocks(&[SYSTEM, MISSION, TURN_INFO], &[0, 2]));
        // The system prompt's own breakpoint was written: read 1,200, the
        // changed rest (300 + 12) written.
        assert_eq!(c.request(&blocks(&[SYSTEM, MISSION, (4, 12)], &[0, 2])), hit(1200, 312));
        // Without that breakpoint the only entry ended at the old turn info.
        let mut c = anthropic();
        c.request(&blocks(&[SYSTEM, MISSION, TURN_INFO], &[]));
        assert_eq!(c.request(&blocks(&[SYSTEM, MISSION, (4, 12)], &[])), hit(0, 1512));
    }

    #[test]
    fn breakpoints_a_prefix_under_the_minimum_is_not_cached() {
        let mut c = anthropic();
        let small = blocks(&[(1, 700), (2, 300)], &[]);
        assert_eq!(c.request(&small), hit(0, 0));
        assert_eq!(c.request(&small), hit(0, 0));
        // Growing past the minimum writes the whole prefix, once.
        let grown = blocks(&[(1, 700), (2, 300), (3, 24)], &[]);
        assert_eq!(c.request(&grown), hit(0, 1024));
        assert_eq!(c.request(&grown), hit(1024, 0));
    }

    #[test]
    fn breakpoints_more_than_four_keep_the_earliest_three_and_the_last() {
        // 8 blocks, all marked: the request carries 0, 1, 2 and 7.
        let first: Vec<(u64, u64)> = [(10, 1100)].into_iter().chain((11..18).map(|id| (id, 100))).collect();
        let all: Vec<usize> = (0..8).collect();
        let mut c = anthropic();
        assert_eq!(c.request(&blocks(&first, &all)), hit(0, 1800));
        // Block 5 changes: blocks 3..6 were marked but never sent as
        // breakpoints, so the longest written prefix is the one at block 2.
        let mut second = first.clone();
        second[5].0 = 99;
        assert_eq!(c.request(&blocks(&second, &all)), hit(1300, 500));
    }

    #[test]
    fn breakpoints_a_breakpoint_whose_prefix_was_never_written_does_not_hit() {
        let req = [(1, 1100), (2, 200), (3, 200)];
        let mut c = anthropic();
        assert_eq!(c.request(&blocks(&req, &[2])), hit(0, 1500));
        // Breakpoint at block 1: its prefix (1,300 tokens) was never written
        // and the entry at block 2 lies after it.
        assert_eq!(c.request(&blocks(&req, &[1])), hit(0, 1300));
        // Now both entries exist.
        assert_eq!(c.request(&blocks(&req, &[2])), hit(1500, 0));
    }

    #[test]
    fn breakpoints_look_back_twenty_block_boundaries() {
        let session: Vec<(u64, u64)> = [(0, 1000)].into_iter().chain((1..=30).map(|id| (id, 100))).collect();
        // Turn 1 writes the prefix ending at block 4 (1,400 tokens).
        let turn1 = blocks(&session[..5], &[]);
        // Breakpoint at block 24: boundaries 24 down to 4 are searched.
        let mut c = anthropic();
        c.request(&turn1);
        assert_eq!(c.request(&blocks(&session[..25], &[])), hit(1400, 2000));
        // Breakpoint at block 25: block 4 is 21 boundaries back, out of reach.
        let mut c = anthropic();
        c.request(&turn1);
        assert_eq!(c.request(&blocks(&session[..26], &[])), hit(0, 3500));
        // A second breakpoint within reach of block 4 finds it again.
        let mut c = anthropic();
        c.request(&turn1);
        assert_eq!(c.request(&blocks(&session[..26], &[10, 25])), hit(1400, 2100));
    }

    fn messages(pieces: &[(u64, u64)]) -> Request {
        let segments =
            pieces.iter().map(|&(id, tokens)| Segment { id, tokens, breakpoint: false, text: None }).collect();
        Request { segments, trailing_tokens: 1 }
    }

    fn openai() -> PrefixCache {
        PrefixCache::new(1024, 128, false)
    }

    fn no_text(_: &str, _: &str) -> u64 {
        unreachable!("pieces without text are never compared inside")
    }

    #[test]
    fn prefix_first_turn_reads_and_writes_nothing() {
        assert_eq!(openai().request(&messages(&[SYSTEM, MISSION]), no_text), hit(0, 0));
    }

    #[test]
    fn prefix_identical_prompt_reads_its_whole_length_in_steps() {
        let mut c = openai();
        let req = messages(&[SYSTEM, MISSION]);
        c.request(&req, no_text);
        // 1,200 + 300 + 1 = 1,501 shared: 1,024 + 3 × 128 = 1,408 read.
        assert_eq!(c.request(&req, no_text), hit(1408, 0));
    }

    #[test]
    fn prefix_change_in_the_first_message_invalidates_everything_after_it() {
        let mut c = openai();
        c.request(&messages(&[SYSTEM, MISSION]), no_text);
        assert_eq!(c.request(&messages(&[(9, 1200), MISSION]), no_text), hit(0, 0));
    }

    #[test]
    fn prefix_under_the_minimum_is_not_cached() {
        let mut c = openai();
        c.request(&messages(&[(1, 700), (2, 300)]), no_text);
        assert_eq!(c.request(&messages(&[(1, 700), (2, 300), (3, 500)]), no_text), hit(0, 0));
    }

    #[test]
    fn prefix_counts_in_128_token_steps_from_1024() {
        for (shared, read) in [(1023, 0), (1024, 1024), (1151, 1024), (1152, 1152), (1500, 1408)] {
            let mut c = openai();
            c.request(&messages(&[(1, 1000), (2, shared - 1000)]), no_text);
            let longer = messages(&[(1, 1000), (2, shared - 1000), (3, 600)]);
            assert_eq!(c.request(&longer, no_text), hit(read, 0), "{shared} shared tokens");
        }
    }

    #[test]
    fn prefix_matches_against_every_earlier_request() {
        let mut c = openai();
        c.request(&messages(&[(1, 1000), (2, 400)]), no_text);
        c.request(&messages(&[(1, 1000), (5, 50)]), no_text);
        // The best match is the first request, not the latest.
        assert_eq!(c.request(&messages(&[(1, 1000), (2, 400), (3, 10)]), no_text), hit(1280, 0));
    }

    #[test]
    fn prefix_counts_text_shared_inside_the_first_differing_piece() {
        let text = |id: u64, tokens: u64, t: &str| Segment { id, tokens, breakpoint: false, text: Some(Arc::from(t)) };
        let req = |last: Segment| Request { segments: vec![text(1, 1100, "system"), last], trailing_tokens: 1 };
        let mut c = openai();
        c.request(&req(text(2, 100, "user=> 40\nTurns left: 5")), |_, _| unreachable!());
        let mut seen = None;
        let h = c.request(&req(text(3, 100, "user=> 40\nTurns left: 4")), |a, b| {
            seen = Some((a.to_string(), b.to_string()));
            60
        });
        // 1,100 whole + 60 shared inside = 1,160: read 1,152.
        assert_eq!(h, hit(1152, 0));
        assert_eq!(seen.unwrap(), ("user=> 40\nTurns left: 4".to_string(), "user=> 40\nTurns left: 5".to_string()));
    }

    /// The prefix rule read literally: compare with every earlier request.
    /// Returns the shared length and the part of it inside a piece.
    fn every_earlier(earlier: &[Request], req: &Request) -> (u64, u64) {
        let segs = &req.segments;
        let whole = |e: &Request| segs.iter().zip(&e.segments).take_while(|(a, b)| a.id == b.id).count();
        let Some(k) = earlier.iter().map(whole).max() else { return (0, 0) };
        let longest = segs[..k].iter().map(|s| s.tokens).sum::<u64>();
        if segs.len() == k && earlier.iter().any(|e| e.segments.len() == k && whole(e) == k) {
            return (longest + req.trailing_tokens, 0);
        }
        if let Some(Some(mine)) = segs.get(k).map(|s| s.text.as_deref()) {
            let best = earlier
                .iter()
                .filter(|e| whole(e) == k)
                .filter_map(|e| e.segments.get(k)?.text.as_deref())
                .map(|t| common_len(mine, t))
                .max()
                .unwrap_or(0);
            return (longest + best as u64, best as u64);
        }
        (longest, 0)
    }

    #[test]
    fn the_trie_finds_what_comparing_with_every_earlier_request_finds() {
        // Requests of 1 to 4 pieces drawn from a few texts that share
        // prefixes, so whole-piece and inside-piece matches both occur.
        let texts = ["", "a", "ab", "abc", "abd", "b", "ba", "user=> 1", "user=> 12", "user=> 2"];
        let piece = |n: u64| {
            let t = texts[(n % texts.len() as u64) as usize];
            Segment { id: n % texts.len() as u64, tokens: 10 + n % 7, breakpoint: false, text: Some(Arc::from(t)) }
        };
        let mut state = 7u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state >> 33
        };
        // Shared text counted in bytes, cached from the first token on.
        let mut c = PrefixCache::new(1, 1, false);
        let mut earlier: Vec<Request> = Vec::new();
        let (mut inside, mut identical) = (0, 0);
        for _ in 0..400 {
            let len = 1 + next() % 4;
            let req =
                Request { segments: (0..len).map(|_| piece(next() % 5 + next() % 6)).collect(), trailing_tokens: 3 };
            let (expected, inside_piece) = every_earlier(&earlier, &req);
            let hit = c.request(&req, |a, b| common_len(a, b) as u64);
            assert_eq!(hit.read, expected, "request {} of {:?}", earlier.len(), req.segments);
            let whole: u64 = req.segments.iter().map(|s| s.tokens).sum();
            identical += usize::from(expected == whole + req.trailing_tokens);
            inside += usize::from(inside_piece > 0);
            earlier.push(req);
        }
        assert!(inside > 20 && identical > 20, "the draw covers both kinds of match: {inside}, {identical}");
    }

    #[test]
    fn prefix_with_a_write_price_reports_the_newly_cached_part() {
        let mut c = PrefixCache::new(1024, 128, true);
        // 1,501 tokens: 1,408 cacheable, all new.
        assert_eq!(c.request(&messages(&[SYSTEM, MISSION]), no_text), hit(0, 1408));
        // Grown to 1,801: 1,408 read, 1,792 cacheable, 384 written.
        assert_eq!(c.request(&messages(&[SYSTEM, MISSION, (4, 300)]), no_text), hit(1408, 384));
    }
}
