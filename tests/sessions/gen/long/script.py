"""Writing a replayed model: each turn's answer (a sentence or two of
reasoning, then one ```clojure block, or something broken on purpose) and
what the run must make of it. Used by every */answers.py; build.py checks the
expectations against the session `ptc run` writes."""
import json
import os


class Script:
    """The model answers of one session, in order."""

    def __init__(self):
        self.answers = []
        self.expect = []

    def turn(self, text, code, expect="ok"):
        """An answer: reasoning, then one clojure block. `expect` is `ok`,
        `return` or the error kind the runtime must report."""
        self.answers.append("%s\n\n```clojure\n%s\n```" % (text.strip(), code.strip("\n")))
        self.expect.append(expect)

    def prose(self, text):
        """An answer with no code block (the run records a `no_code` error)."""
        self.answers.append(text.strip())
        self.expect.append("no_code")

    def cut(self, text, code):
        """An answer cut off mid-program (output limit): no closing fence."""
        self.answers.append("%s\n\n```clojure\n%s" % (text.strip(), code.rstrip()))
        self.expect.append("parse")

    def write(self, answers_py):
        """Writes replay.json (the answers) and expect.json beside the
        answers.py script `answers_py`."""
        folder = os.path.dirname(os.path.abspath(answers_py))
        with open(os.path.join(folder, "replay.json"), "w", encoding="utf-8") as f:
            json.dump(self.answers, f, indent=1, ensure_ascii=False)
            f.write("\n")
        with open(os.path.join(folder, "expect.json"), "w", encoding="utf-8") as f:
            json.dump(self.expect, f)
            f.write("\n")
        print("%s: %d answers" % (os.path.basename(folder), len(self.answers)))


def fill(code, **kw):
    """`code` with every <<NAME>> replaced by kw[NAME]."""
    for k, v in kw.items():
        code = code.replace("<<%s>>" % k, str(v))
    assert "<<" not in code, code
    return code


def clj(text):
    """`text` as a PTC-Lisp string literal."""
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
