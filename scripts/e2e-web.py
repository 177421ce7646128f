#!/usr/bin/python3
"""Drive headless Chromium through the DevTools protocol against a running alembic-web.

Usage: e2e-web.py DEVTOOLS_PORT SERVER_URL OUT_DIR [coins]

Plays a game with keys and a mouse click, reloads and checks the same game continues,
watches it from a second browser context (its own cookies) and steps back into the
past, and saves screenshots into OUT_DIR. Prints one line per check; exits 1 on failure.

With `coins`, SERVER_URL is the outside game's server (examples/coins, `coins-web`): the
lobby offers coins alone, a game the server does not offer is refused by name, and a coins
game is played in the page until every coin is picked up and its summary shows.
"""
import base64
import json
import sys
import time
import urllib.request

import websocket  # Debian's python3-websocket

PORT, URL, OUT = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3]
MODE = sys.argv[4] if len(sys.argv) > 4 else "builtin"


class Cdp:
    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=30, suppress_origin=True)
        self.next = 0

    def call(self, method, params=None, session=None):
        self.next += 1
        msg = {"id": self.next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        while True:
            r = json.loads(self.ws.recv())
            if r.get("id") == self.next:
                if "error" in r:
                    raise RuntimeError(f"{method}: {r['error']}")
                return r.get("result", {})


def fail(why):
    print(f"FAIL: {why}")
    sys.exit(1)


def ok(what):
    print(f"ok: {what}")


version = json.load(urllib.request.urlopen(f"http://127.0.0.1:{PORT}/json/version"))
cdp = Cdp(version["webSocketDebuggerUrl"])


def open_page(url, context=None):
    params = {"url": "about:blank"}
    if context:
        params["browserContextId"] = context
    target = cdp.call("Target.createTarget", params)["targetId"]
    session = cdp.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    cdp.call("Page.enable", session=session)
    cdp.call("Runtime.enable", session=session)
    cdp.call("Emulation.setDeviceMetricsOverride",
             {"width": 1000, "height": 640, "deviceScaleFactor": 1, "mobile": False}, session=session)
    cdp.call("Page.navigate", {"url": url}, session=session)
    return session


def js(session, expr):
    r = cdp.call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=session)
    if "exceptionDetails" in r:
        return None
    return r["result"].get("value")


def wait(session, expr, what, timeout=15.0):
    end = time.time() + timeout
    while time.time() < end:
        try:
            v = js(session, expr)
        except RuntimeError as e:
            # The page is navigating (a form sent, a link followed): ask the next one.
            if "navigated" not in str(e):
                raise
            v = None
        if v:
            return v
        time.sleep(0.1)
    fail(f"timed out waiting for {what} ({expr}); errors: {js(session, 'window.alembic && window.alembic.errors')}")


def key(session, key, code, text=None, vk=0):
    base = {"key": key, "code": code, "windowsVirtualKeyCode": vk}
    down = dict(base, type="keyDown")
    if text:
        down["text"] = text
    cdp.call("Input.dispatchKeyEvent", down, session=session)
    cdp.call("Input.dispatchKeyEvent", dict(base, type="keyUp"), session=session)


def click(session, x, y):
    for t in ("mouseMoved", "mousePressed", "mouseReleased"):
        cdp.call("Input.dispatchMouseEvent",
                 {"type": t, "x": x, "y": y, "button": "left", "clickCount": 1}, session=session)


def shot(session, name):
    data = cdp.call("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
    path = f"{OUT}/{name}.png"
    with open(path, "wb") as f:
        f.write(base64.b64decode(data))
    print(f"screenshot: {path}")


def settle(session):
    """Wait until no frame arrived for 300 ms."""
    last, same_since = -1, time.time()
    end = time.time() + 10
    while time.time() < end:
        n = js(session, "window.alembic.frames")
        if n != last:
            last, same_since = n, time.time()
        elif time.time() - same_since > 0.3:
            return n
        time.sleep(0.05)
    return last


def coins():
    """The outside game (coins-web: `alembic_web::run_games` over examples/coins' table)."""
    lobby = open_page(URL + "/")
    wait(lobby, "document.getElementById('new') !== null", "the coins server's lobby")
    offered = js(lobby, "[...document.querySelectorAll('select[name=game] option')].map(o => o.textContent)")
    if offered != ["coins"]:
        fail(f"the lobby offers {offered}, not coins alone")
    ok("the coins server's lobby offers coins alone")
    # A game this server does not offer: refused by name, nothing started.
    cdp.call("Page.navigate", {"url": URL + "/play?game=alchemy&name=Wrong"}, session=lobby)
    wait(lobby, "window.alembic && window.alembic.errors.some(e => /unknown game/.test(e))", "the refusal")
    errors = js(lobby, "window.alembic.errors")
    if not any('unknown game "alchemy"; this server offers coins' in e for e in errors):
        fail(f"the refusal does not name the game and the server's games: {errors}")
    ok(f"a game the server does not offer is refused: {errors[0]}")
    # Coins from the lobby's form, played with the page's keys until every coin is taken.
    cdp.call("Page.navigate", {"url": URL + "/"}, session=lobby)
    wait(lobby, "document.getElementById('new') !== null", "the lobby again")
    js(lobby, """(() => { const f = document.getElementById('new').form;
      f.querySelector('input[name=name]').value = 'Chromium';
      document.getElementById('new').click(); })()""")
    page = lobby
    wait(page, "window.alembic && window.alembic.frames > 0 && window.alembic.game === 'coins'", "the coins game")
    wait(page, "/Coins 0\\/5  Turn 0/.test(window.alembic.text())", "the coins room")
    settle(page)
    ok(f"coins started from the lobby (game {js(page, 'window.alembic.id')})")
    where = """(() => { const t = window.alembic.text().split('\\n');
      const y0 = t.findIndex(l => l.includes('#'.repeat(20)));
      if (y0 < 0) return null;
      const x0 = t[y0].indexOf('#'.repeat(20));
      const hero = [], coins = [];
      for (let y = y0; y < y0 + 10 && y < t.length; y++)
        for (let x = x0; x < x0 + 20; x++) {
          if (t[y][x] === '@') hero.push([x, y]);
          if (t[y][x] === '$') coins.push([x, y]);
        }
      return {hero, coins}; })()"""
    keys = {"l": ("KeyL", 76), "h": ("KeyH", 72), "j": ("KeyJ", 74), "k": ("KeyK", 75)}
    shown_mid = False
    for step in range(1, 200):
        w = js(page, where)
        if js(page, "window.alembic.ended !== null") or not w or not w["coins"]:
            break
        (hx, hy), = w["hero"]
        cx, cy = min(w["coins"], key=lambda c: abs(c[0] - hx) + abs(c[1] - hy))
        k = "l" if cx > hx else "h" if cx < hx else "j" if cy > hy else "k"
        key(page, k, keys[k][0], k, keys[k][1])
        wait(page, f"window.alembic.ended !== null || window.alembic.text().includes('Turn {step}')",
             f"turn {step} on the coins line")
        if not shown_mid and "Coins 2/5" in js(page, "window.alembic.text()"):
            shot(page, "web-coins")
            shown_mid = True
            # The session's questions in the page: which coin, then where (the cursor).
            key(page, "t", "KeyT", "t", 84)
            wait(page, "window.alembic.text().includes('Throw which coin?')", "the list of coins to throw")
            letter = js(page, """(() => { const m = window.alembic.text().match(/([a-z])\\) \\d+ \\w+ coins? - worth/);
              return m && m[1]; })()""")
            if not letter:
                fail("the list of coins shows no letter:\n" + js(page, "window.alembic.text()"))
            key(page, letter, "Key" + letter.upper(), letter, ord(letter.upper()))
            wait(page, "window.alembic.text().includes(' coin where?')", "the targeting cursor")
            settle(page)
            shot(page, "web-coins-throw")
            key(page, "Escape", "Escape", None, 27)
            wait(page, "window.alembic.text().includes('Okay, then.')", "backing out of the throw")
            ok("the throw's questions in the page: the lettered list, then the cursor (web-coins-throw.png); Esc backed out")
    wait(page, "window.alembic.ended !== null && window.alembic.summary", "the coins game's summary")
    shown = js(page, "document.getElementById('overlay-text').innerText")
    if "picked up every coin" not in shown:
        fail(f"the summary does not say how the game was won:\n{shown}")
    shot(page, "web-coins-summary")
    ok(f"every coin picked up in the page ({step} keys); the summary shows: {shown.splitlines()[0]}")
    cdp.call("Page.navigate", {"url": URL + "/"}, session=page)
    link = wait(page, "(() => { const a = document.querySelector(\"#finished a[href^='/replay/']\"); return a && a.getAttribute('href'); })()",
                "the coins recording among the finished games")
    cdp.call("Page.navigate", {"url": URL + link}, session=page)
    wait(page, "window.alembic && window.alembic.frames > 0 && /REPLAY/.test(window.alembic.text())", "the coins replay")
    settle(page)
    key(page, "End", "End", None, 35)
    settle(page)
    if "Coins 5/5" not in js(page, "window.alembic.text()"):
        fail("the replay's end is not the won game:\n" + js(page, "window.alembic.text()"))
    shot(page, "web-coins-replay")
    ok(f"the finished coins game replays in the page to its end ({link})")
    # One more game, left running for the SIGTERM check.
    cdp.call("Page.navigate", {"url": URL + "/play?game=coins&name=Again"}, session=page)
    wait(page, "window.alembic && window.alembic.frames > 0 && window.alembic.id", "another coins game")
    key(page, "j", "KeyJ", "j", 74)
    settle(page)
    print("E2E-WEB COINS OK")


if MODE == "coins":
    coins()
    sys.exit(0)


# 1. The lobby sets the player's cookie; a new game starts from the form's address.
lobby = open_page(URL + "/")
wait(lobby, "document.getElementById('new') !== null", "the lobby's new-game form")
ok("lobby loads")
player = lobby
cdp.call("Page.navigate", {"url": URL + "/play?game=alchemy&name=Chromium"}, session=player)
wait(player, "window.alembic && window.alembic.frames > 0 && window.alembic.id", "the first frame")
game_id = js(player, "window.alembic.id")
ok(f"game {game_id} started, first frame drawn")
settle(player)
before = js(player, "window.alembic.text()")
if "@" not in before:
    fail("no hero (@) on the first screen:\n" + before)
ok("the map shows the hero")

# 2. Keys: vi keys, arrows, a numpad digit; each must change the screen or the turn.
turn_of = "(() => { const m = /turn (\\d+)/i.exec(window.alembic.text()); return m ? Number(m[1]) : null; })()"
frames0 = js(player, "window.alembic.frames")
for k, code, text, vk in [("l", "KeyL", "l", 76), ("ArrowDown", "ArrowDown", None, 40),
                          ("h", "KeyH", "h", 72), ("ArrowUp", "ArrowUp", None, 38),
                          ("4", "Numpad4", "4", 100), ("6", "Numpad6", "6", 102),
                          ("j", "KeyJ", "j", 74)]:
    key(player, k, code, text, vk)
    time.sleep(0.05)
settle(player)
frames1 = js(player, "window.alembic.frames")
if frames1 <= frames0:
    fail("keys drew no new frames")
ok(f"keys drew {frames1 - frames0} frames")
shot(player, "web-game")

# 2b. F2: the map in tiles (pictures from the server's atlas), then back to letters.
key(player, "F2", "F2", None, 113)
settle(player)
tiles = js(player, "[...window.alembic.text()].filter(c => c.codePointAt(0) >= 0x100000).length")
if not tiles:
    fail("F2 drew no tiles")
ok(f"F2 shows the map in tiles ({tiles} tile cells)")
shot(player, "web-game-tiles")
key(player, "F2", "F2", None, 113)
settle(player)

# 2c. The grid follows the window's size.
cols_before = js(player, "window.alembic.text().split('\\n')[0].length")
cdp.call("Emulation.setDeviceMetricsOverride",
         {"width": 800, "height": 520, "deviceScaleFactor": 1, "mobile": False}, session=player)
wait(player, f"window.alembic.text().split('\\n')[0].length < {cols_before}", "the smaller grid")
cdp.call("Emulation.setDeviceMetricsOverride",
         {"width": 1000, "height": 640, "deviceScaleFactor": 1, "mobile": False}, session=player)
wait(player, f"window.alembic.text().split('\\n')[0].length == {cols_before}", "the grid back")
settle(player)
ok(f"the grid follows the window ({cols_before} columns, fewer in a smaller window, back again)")

# 3. A mouse click on the map (the hero's own cell) is sent as an input and answered.
pos = js(player, """(() => { const t = window.alembic.text().split('\\n');
  for (let y = 0; y < t.length; y++) { const x = t[y].indexOf('@'); if (x >= 0) return [x, y]; } return null; })()""")
cw = js(player, "document.getElementById('screen').getBoundingClientRect().width / (window.alembic.text().split('\\n')[0].length)")
ch = js(player, "document.getElementById('screen').getBoundingClientRect().height / window.alembic.text().split('\\n').length")
f0 = js(player, "window.alembic.frames")
click(player, (pos[0] + 3.5) * cw, (pos[1] + 0.5) * ch)
time.sleep(0.3)
settle(player)
if js(player, "window.alembic.frames") <= f0:
    fail("the mouse click drew no frame")
ok("mouse hover and click answered with frames")
f0 = js(player, "window.alembic.frames")
cdp.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": 200, "y": 200, "deltaX": 0, "deltaY": 120},
         session=player)
settle(player)
if js(player, "window.alembic.frames") <= f0:
    fail("the mouse wheel drew no frame")
ok("the mouse wheel is sent and answered")

# 4. Reload: the same game continues (same id, same screen).
text_before = settle(player) and js(player, "window.alembic.text()")
cdp.call("Page.reload", {}, session=player)
time.sleep(0.5)
wait(player, "window.alembic && window.alembic.frames > 0 && window.alembic.id", "the frame after reload")
settle(player)
if js(player, "window.alembic.id") != game_id:
    fail("the reload opened another game")
if js(player, "window.alembic.text()") != text_before:
    fail("the reload shows another screen")
if "/play?id=" not in js(player, "location.href"):
    fail("the address does not name the game")
ok("reload continues the same game")
key(player, "j", "KeyJ", "j", 74)
settle(player)
ok("keys still play after the reload")

# 5. Another browser context (no cookie of the player's): watch it live, try to play, step back.
ctx = cdp.call("Target.createBrowserContext", {})["browserContextId"]
lobby2 = open_page(URL + "/", ctx)
wait(lobby2, f"document.querySelector(\"a[href='/watch/{game_id}']\") !== null", "the game in the lobby")
shot(lobby2, "web-lobby")
ok("the lobby lists the game with a watch link")
cdp.call("Page.navigate", {"url": f"{URL}/watch/{game_id}"}, session=lobby2)
spect = lobby2
wait(spect, "window.alembic && window.alembic.frames > 0", "the spectator's first frame")
settle(spect)
if js(spect, "window.alembic.text()") != js(player, "window.alembic.text()"):
    fail("the spectator sees another screen than the player")
ok("the spectator sees the player's screen")
f_player = js(player, "window.alembic.frames")
key(spect, "k", "KeyK", "k", 75)
wait(spect, "window.alembic.errors.some(e => /spectators cannot send input/.test(e))", "the refusal")
time.sleep(0.3)
if js(player, "window.alembic.frames") != f_player:
    fail("the spectator's key reached the player's game")
ok("a spectator's key is refused and the player's game is untouched")
key(player, "l", "KeyL", "l", 76)
settle(player)
settle(spect)
if js(spect, "window.alembic.text()") != js(player, "window.alembic.text()"):
    fail("the spectator does not follow the player live")
ok("the spectator follows the player's moves live")
shot(spect, "web-spectate-live")
key(spect, "ArrowLeft", "ArrowLeft", None, 37)
wait(spect, "window.alembic.notices.some(n => /The past/.test(n))", "the look back")
settle(spect)
past = js(spect, "window.alembic.text()")
if "REPLAY" not in past.upper():
    fail("stepping back shows no replay bar:\n" + past)
ok("the spectator stepped back into the game's past (replay viewer)")
shot(spect, "web-spectate-past")
key(spect, "Escape", "Escape", None, 27)
wait(spect, "window.alembic.notices.some(n => n === 'Live.')", "back to live")
settle(spect)
if js(spect, "window.alembic.text()") != js(player, "window.alembic.text()"):
    fail("back to live shows another screen")
ok("back to live")

# 6. The connection drops (the player's socket is closed under it): a message, then back.
js(player, "retry = 1500")
cdp.call("Runtime.evaluate", {"expression": "ws.close()"}, session=player)
wait(player, "document.getElementById('overlay').classList.contains('shown')", "the drop message", 5)
if "reconnecting" not in js(player, "document.getElementById('overlay-text').textContent"):
    fail("no clear message on the drop")
shot(player, "web-dropped")
wait(player, "window.alembic.connected && !document.getElementById('overlay').classList.contains('shown')", "the reconnection")
ok("a dropped connection shows a message and reconnects to the same game")
# 7. The player quits: the game ends (recording, morgue) and the page shows its summary
#    with links, never a path of the server's; the recording replays in the page with steps
#    back and forth.
key(player, "Q", "KeyQ", "Q", 81)
settle(player)
key(player, "y", "KeyY", "y", 89)
wait(player, "window.alembic.ended !== null && window.alembic.summary", "the summary after Q y")
shown = js(player, "document.getElementById('overlay-text').innerText")
for want in ("You quit.", "Cause", "Depth", "Turns", "Score", "morgue file", "replay"):
    if want not in shown:
        fail(f"the summary in the page lacks {want!r}:\n{shown}")
for path in ("/tmp/", "records/", "morgue/", ".replay", "/data"):
    if path in shown or path in js(player, "window.alembic.text()"):
        fail(f"the page shows a server path ({path}):\n{shown}")
hrefs = js(player, "[...document.querySelectorAll('#end-links a')].map(a => a.getAttribute('href'))")
for href in hrefs:
    status = cdp.call("Runtime.evaluate", {"expression": f"fetch({json.dumps(href)}).then(r => r.status)",
                                          "awaitPromise": True, "returnByValue": True},
                      session=player)["result"]["value"]
    if status != 200:
        fail(f"the summary's link {href} answers {status}")
shot(player, "web-summary")
ok(f"Q y ends on the summary in the page, its links answer 200: {', '.join(hrefs)}")
cdp.call("Page.navigate", {"url": URL + "/"}, session=player)
link = wait(player, "(() => { const a = document.querySelector(\"#finished a[href^='/replay/']\"); return a && a.getAttribute('href'); })()",
            "the recording in the lobby's finished games")
if not js(player, "document.querySelector(\"#finished a[href^='/morgue/']\") !== null"):
    fail("no morgue file listed for the finished game")
ok(f"the lobby lists the finished game's recording and morgue ({link})")
shot(player, "web-lobby-finished")
# The finished game's public page: who played it, its morgue file (from the store).
game_id = link.rsplit("-", 1)[1]
cdp.call("Page.navigate", {"url": URL + "/games/" + game_id}, session=player)
wait(player, "document.getElementById('morgue') !== null", "the game's page with its morgue file")
if "the record of a game" not in js(player, "document.getElementById('morgue').textContent"):
    fail("the game's page does not show its morgue file")
shot(player, "web-game-page")
ok(f"the finished game's page shows its morgue file (/games/{game_id})")
cdp.call("Page.navigate", {"url": URL + link}, session=player)
wait(player, "window.alembic && window.alembic.frames > 0 && /REPLAY/.test(window.alembic.text())", "the replay")
settle(player)
key(player, "End", "End", None, 35)
settle(player)
end_text = js(player, "window.alembic.text()")
key(player, "ArrowLeft", "ArrowLeft", None, 37)
settle(player)
if js(player, "window.alembic.text()") == end_text:
    fail("stepping back in the replay changed nothing")
key(player, "ArrowRight", "ArrowRight", None, 39)
settle(player)
if js(player, "window.alembic.text()") != end_text:
    fail("stepping forth again does not come back to the end")
ok("the recording replays in the page, stepping back and forth")
shot(player, "web-replay")

# 8. The Caves and the rats, each started from the lobby's form in a browser of its own:
#    straight into the game, no terminal start menu, no quit key, no server path.
for game, keys in (("caves", [("o", "KeyO", "o", 79)] * 3), ("rats", [("o", "KeyO", "o", 79)] * 2)):
    c = cdp.call("Target.createBrowserContext", {})["browserContextId"]
    page = open_page(URL + "/", c)
    wait(page, "document.getElementById('new') !== null", f"the lobby's form ({game})")
    js(page, f"""(() => {{ const f = document.getElementById('new').form;
      f.querySelector('select[name=game]').value = '{game}';
      f.querySelector('input[name=name]').value = 'Lobby-{game}';
      document.getElementById('new').click(); }})()""")
    wait(page, f"window.alembic && window.alembic.frames > 0 && window.alembic.game === '{game}'",
         f"the {game} game from the lobby")
    settle(page)
    for k in keys:
        key(page, *k)
        time.sleep(0.4)
        settle(page)
    text = js(page, "window.alembic.text()")
    if "@" not in text:
        fail(f"{game}: no hero on the screen:\n{text}")
    for bad in ("New game from a seed", "/tmp/", ".save"):
        if bad in text:
            fail(f"{game}: the page shows {bad!r}:\n{text}")
    shot(page, f"web-{game}")
    ok(f"{game} started from the lobby plays at once (game {js(page, 'window.alembic.id')})")
    if game == "rats":
        key(page, "Q", "KeyQ", "Q", 81)
        settle(page)
        key(page, "y", "KeyY", "y", 89)
        wait(page, "window.alembic.ended !== null && window.alembic.summary", "the rats' summary")
        shot(page, "web-rats-summary")
        ok("the rats' end shows its summary in the page")

# 9. A new game, left running for the SIGTERM check.
cdp.call("Page.navigate", {"url": URL + "/play?game=alchemy&name=Again"}, session=player)
wait(player, "window.alembic && window.alembic.frames > 0 && window.alembic.id", "a new game")
key(player, "l", "KeyL", "l", 76)
settle(player)
ok(f"a new game ({js(player, 'window.alembic.id')}) after the end of the last")
print("E2E-WEB OK")
