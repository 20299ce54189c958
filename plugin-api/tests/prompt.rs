//! Prompts through the SDK's public API: content blocks and breakpoints.

use ptc_plugin_api::{Block, BlockRef, Prompt, Role, Stats};

#[test]
fn blocks_split_the_text_and_keep_breakpoints() {
    let p = Prompt::builder()
        .system("sys")
        .message(
            Role::User,
            [Block::new("a").breakpoint(), Block::new(""), Block::new("bé").breakpoint(), Block::new("c")],
        )
        .build(Stats::new("t"));
    p.check().unwrap();
    assert_eq!(p.messages()[1].content(), "abéc");
    let b: Vec<_> = p.blocks(1).map(|b| (b.text, b.breakpoint)).collect();
    assert_eq!(b, [("a", true), ("bé", true), ("c", false)]);
    assert_eq!(p.blocks(0).collect::<Vec<_>>(), [BlockRef { text: "sys", breakpoint: false }]);
    assert_eq!(p.breakpoint_count(), 2);
}
