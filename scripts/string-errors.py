#!/usr/bin/env python3
"""Count the public signatures of a crate's modules whose error type is a String: pub fns and
pub trait methods (signatures joined across lines). Usage: python3 scripts/string-errors.py session/src
"""
import re, sys, pathlib
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else 'session/src')
hits = []
for f in sorted(root.glob('*.rs')):
    text = f.read_text()
    # drop tests modules
    text = re.split(r'\n#\[cfg\(test\)\]\nmod tests', text)[0]
    in_pub_trait = False
    depth = 0
    sig = None
    for i, line in enumerate(text.split('\n'), 1):
        s = line.strip()
        if s.startswith('//'):
            continue
        if re.match(r'pub trait ', s):
            in_pub_trait = True
        if sig is not None:
            sig += ' ' + s
            if '{' in s or s.endswith(';'):
                if re.search(r'Result<[^;{]*,\s*String>', sig):
                    hits.append((f.name, start, sig[:110]))
                sig = None
            continue
        if re.match(r'pub (const )?fn ', s) or (in_pub_trait and re.match(r'fn ', s)):
            sig = s; start = i
            if '{' in s or s.endswith(';'):
                if re.search(r'Result<[^;{]*,\s*String>', sig):
                    hits.append((f.name, start, sig[:110]))
                sig = None
        if in_pub_trait and s == '}' and line.startswith('}'):
            in_pub_trait = False
for h in hits:
    print(f'{h[0]}:{h[1]}: {h[2]}')
print(len(hits), 'public signatures with a String error')
