#!/usr/bin/env python3
"""Builds tests/sessions/NAME.json from gen/src_NAME.py by running every turn's
program in real Clojure 1.11 (gen/harness.clj, needs `apt-get install clojure`).
Generator aid only: the tests read the JSON files, not this."""
import importlib.util, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)


def edn_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n').replace('\t', '\\t').replace('\r', '\\r') + '"'


def to_edn(x):
    if x is None:
        return 'nil'
    if isinstance(x, str):
        return edn_str(x)
    if isinstance(x, dict):
        return '{' + ' '.join(to_edn(k) + ' ' + to_edn(v) for k, v in x.items()) + '}'
    if isinstance(x, (list, tuple)):
        return '[' + ' '.join(to_edn(v) for v in x) + ']'
    raise TypeError(x)


def T(text, code=None, error=None, after=None, raw=None, fence='clojure'):
    """One turn: reasoning text, program, optional expected error (kind, message)."""
    if raw is None:
        raw = text
        if code is not None:
            raw += ('\n\n' if text else '') + '```' + fence + '\n' + code + '\n```'
        if after:
            raw += '\n\n' + after
    return {'raw': raw, 'code': code, 'error': error}


def build(name):
    spec_path = os.path.join(HERE, 'src_%s.py' % name.replace('-', '_'))
    mod_spec = importlib.util.spec_from_file_location('s', spec_path)
    mod = importlib.util.module_from_spec(mod_spec)
    mod.T = T
    mod_spec.loader.exec_module(mod)
    S = mod.SESSION
    inp = {
        'data': S['data'],
        'tool-impl': S.get('tool_impl', ''),
        'programs': [t['code'] for t in S['turns']],
    }
    lat = S.get('tool_latency', {})
    edn_in = ('{:data ' + to_edn(inp['data']) + ' :tool-impl ' + edn_str(inp['tool-impl'])
              + ' :programs [' + ' '.join('nil' if p is None else edn_str(p) for p in inp['programs']) + ']'
              + ' :seed ' + str(S.get('seed', 42))
              + ' :tool-latency {' + ' '.join(edn_str(k) + ' [%d %d]' % tuple(v) for k, v in lat.items()) + '}}')
    with tempfile.TemporaryDirectory() as d:
        fi, fo = os.path.join(d, 'in.edn'), os.path.join(d, 'out.json')
        open(fi, 'w', encoding='utf-8').write(edn_in)
        r = subprocess.run(['clojure', os.path.join(HERE, 'harness.clj'), fi, fo], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit('harness failed:\n' + r.stdout + r.stderr)
        res = json.load(open(fo, encoding='utf-8'))
    turns = []
    final = None
    ok = True
    for t, h in zip(S['turns'], res):
        n = h['number']
        h['tool_calls'] = [{k: c[k] for k in ('name', 'args', 'result', 'error', 'duration_ms')} for c in h['tool_calls']]
        for w in h['warnings']:
            if w not in S.get('accept_warnings', {}).get(n, []):
                print('%s turn %d WARNING %s' % (name, n, w))
        turn = {'number': n, 'raw_response': t['raw'], 'program': t['code']}
        if t['error']:
            kind, msg = t['error']
            if h['success']:
                print('%s turn %d: expected %s error but program succeeded: %s' % (name, n, kind, h['result']))
                ok = False
            else:
                print('%s turn %d fails as expected (%s) via: %s' % (name, n, kind, h.get('exception') or 'no program'))
            turn.update(success=False, result=None, error={'kind': kind, 'message': msg},
                        prints=h['prints'], tool_calls=h['tool_calls'], definitions=[])
        else:
            if not h['success']:
                print('%s turn %d UNEXPECTED FAILURE: %s' % (name, n, h.get('exception')))
                ok = False
            turn.update(success=True, result=h.get('result'), error=None, prints=h['prints'],
                        tool_calls=h['tool_calls'], definitions=h['definitions'])
            if 'return' in h:
                final = h['return']
            if ('return' in h or 'fail' in h) and n != len(S['turns']):
                print('%s: mission ended at turn %d but more turns follow' % (name, n)); ok = False
        turns.append(turn)
    blob = json.dumps([[t['result'], t['prints'], t['tool_calls'], t['definitions']] for t in turns])
    for tok in set(re.findall(r'(?<![\w.])-?\d+\.\d{6,}(?![\d.])', blob)):
        if repr(float(tok)) != tok:
            print('%s: float %s is not the shortest repr (%s)' % (name, tok, repr(float(tok))))
    session = {
        'format': 'ptc-session/1',
        'agent': S['agent'],
        'mission': S['mission'],
        'system_prompt': S.get('system_prompt', SYSTEM_PROMPT),
        'max_turns': S['max_turns'],
        'tools': S['tools'],
        'data': S['data'],
        'turns': turns,
        'result': final,
        'usage': {},
    }
    path = os.path.join(OUT, name + '.json')
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(session, f, indent=2, ensure_ascii=False)
        f.write('\n')
    ntc = sum(len(t['tool_calls']) for t in turns)
    npr = sum(len(t['prints']) for t in turns)
    print('%s: %d turns, %d tool calls, %d prints, result=%s%s' % (
        name, len(turns), ntc, npr, (final or 'null')[:60], '' if ok else '  <<< PROBLEMS'))
    return ok


SYSTEM_PROMPT = """You are a PTC-Lisp agent. You solve the mission by writing small programs in PTC-Lisp, a safe subset of Clojure.
Answer with one ```clojure block per turn. Use (def name value) to keep results for later turns; they appear under user/.
Call tools as (tool/name {:arg value}); read input data as data/name. Use println to see values.
When you have the answer call (return value); if the mission cannot be done call (fail reason)."""

if __name__ == '__main__':
    names = sys.argv[1:] or sorted(f[4:-3].replace('_', '-') for f in os.listdir(HERE) if f.startswith('src_') and f.endswith('.py'))
    allok = all([build(n) for n in names])
    sys.exit(0 if allok else 1)
