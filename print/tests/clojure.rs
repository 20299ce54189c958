//! Strings with every control character, printed as Clojure 1.11's `pr-str`
//! prints them. The expected text is in `clojure-pr-str.txt`, made by
//! `clojure -e '(print (pr-str (apply str (map char (concat (range 0 32) [34 92 127 955])))))'`;
//! when `clojure` is on PATH the test asks it again and checks the file.

use std::process::Command;

fn every_control_character() -> String {
    (0u32..32).chain([34, 92, 127, 955]).map(|c| char::from_u32(c).unwrap()).collect()
}

#[test]
fn strings_print_as_clojure_pr_str_does() {
    let expected = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clojure-pr-str.txt")).unwrap();
    let mut ours = String::new();
    ptc_print::write_str_readably(&mut ours, &every_control_character(), usize::MAX).unwrap();
    assert_eq!(ours, expected);
    let on_path =
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("clojure").is_file()));
    if on_path {
        let expr = "(print (pr-str (apply str (map char (concat (range 0 32) [34 92 127 955])))))";
        let out = Command::new("clojure").args(["-e", expr]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected,
            "Clojure prints differently from the recorded file"
        );
    } else {
        eprintln!("clojure is not on PATH: compared with the recorded pr-str output only");
    }
}
