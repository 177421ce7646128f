// The Alembic page: draws a game's cells on a canvas from the server's deflated diffs and
// sends keys and the mouse back. One page plays (/play), watches (/watch/ID) and replays
// (/replay/FILE); the wire format is described in frontend-web/src/protocol.rs.
'use strict';

const FONT_PX = 16;
const FONT = `${FONT_PX}px "DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", monospace`;
const BAR_PX = 22;
// The tile table: alembic_ui's tile codes (ui/src/frame.rs) and the atlas's layout
// (src/atlas.rs: the plain tiles, then the 94 creature tokens). A Rust test checks every
// value here against them (atlas.rs, the_pages_tile_table_is_the_rusts).
const TILE_BASE = 0x100000, SPAN_STRIDE = 0x5000, TOKEN = 0x100, GLYPH = 0x1000;
const ATLAS_COLUMNS = 16, PLAIN_TILES = 41, ATLAS_TILES = 41 + 94;

const canvas = document.getElementById('screen');
const ctx = canvas.getContext('2d', { alpha: false });
const overlay = document.getElementById('overlay');
const overlayText = document.getElementById('overlay-text');
const what = document.getElementById('what');
const notice = document.getElementById('notice');

// Which websocket this page opens.
const path = location.pathname;
let role = 'player', wsPath;
if (path.startsWith('/watch/')) { role = 'spectator'; wsPath = '/ws/watch/' + path.slice(7); }
else if (path.startsWith('/replay/')) { role = 'replay'; wsPath = '/ws/replay/' + path.slice(8); }
else { wsPath = '/ws/play' + location.search; }

// Cell size from the font.
ctx.font = FONT;
const CW = Math.ceil(ctx.measureText('M').width);
const CH = Math.ceil(FONT_PX * 1.25);
const DPR = window.devicePixelRatio || 1;

// The grid as last received.
let gw = 0, gh = 0, chars = new Uint32Array(0), fg = new Uint8Array(0), bg = new Uint8Array(0);
// What tests read: frames drawn, the text on screen, the game.
const state = { frames: 0, id: null, game: null, role, connected: false, ended: null, errors: [], notices: [] };
window.alembic = state;
state.text = () => {
  const rows = [];
  for (let y = 0; y < gh; y++) {
    let r = '';
    for (let x = 0; x < gw; x++) r += String.fromCodePoint(chars[y * gw + x] || 32);
    rows.push(r);
  }
  return rows.join('\n');
};

const atlas = new Image();
let atlasReady = false;
atlas.onload = () => { atlasReady = true; redrawAll(); };
atlas.src = '/tiles.png';
const tinted = new Map();

function rgb(a, i) { return `rgb(${a[i]},${a[i + 1]},${a[i + 2]})`; }

function sprite(idx, colour) {
  const key = idx + '|' + colour;
  let c = tinted.get(key);
  if (c) return c;
  if (tinted.size > 4000) tinted.clear();
  const tw = atlas.naturalWidth / ATLAS_COLUMNS;
  const th = atlas.naturalHeight / Math.ceil(ATLAS_TILES / ATLAS_COLUMNS);
  c = document.createElement('canvas');
  c.width = tw; c.height = th;
  const g = c.getContext('2d');
  g.fillStyle = colour;
  g.fillRect(0, 0, tw, th);
  g.globalCompositeOperation = 'destination-in';
  g.drawImage(atlas, (idx % ATLAS_COLUMNS) * tw, Math.floor(idx / ATLAS_COLUMNS) * th, tw, th, 0, 0, tw, th);
  tinted.set(key, c);
  return c;
}

function drawCell(i) {
  const x = (i % gw) * CW, y = Math.floor(i / gw) * CH;
  const cp = chars[i], f = rgb(fg, i * 3);
  ctx.fillStyle = rgb(bg, i * 3);
  ctx.fillRect(x, y, CW, CH);
  if (cp === 32 || cp === 0) return;
  const code = cp - TILE_BASE;
  if (code >= 0 && code < 3 * SPAN_STRIDE) {
    const span = Math.floor(code / SPAN_STRIDE), payload = code % SPAN_STRIDE;
    if (payload >= GLYPH) {
      // A letter centred across the tile's two cells.
      ctx.save();
      ctx.beginPath(); ctx.rect(x, y, CW, CH); ctx.clip();
      ctx.fillStyle = f; ctx.textAlign = 'center';
      const cx = span === 1 ? x + CW : span === 2 ? x : x + CW / 2;
      ctx.fillText(String.fromCodePoint(payload - GLYPH), cx, y + FONT_PX);
      ctx.restore();
      return;
    }
    let idx = payload >= TOKEN ? PLAIN_TILES + (payload - TOKEN - 33) : payload;
    if (!atlasReady || idx < 0 || idx >= ATLAS_TILES) return;
    const s = sprite(idx, f);
    const half = s.width / 2;
    if (span === 0) ctx.drawImage(s, 0, 0, s.width, s.height, x, y, CW, CH);
    else ctx.drawImage(s, span === 1 ? 0 : half, 0, half, s.height, x, y, CW, CH);
    return;
  }
  ctx.fillStyle = f;
  ctx.fillText(String.fromCodePoint(cp), x, y + FONT_PX);
}

function setupCanvas() {
  canvas.width = Math.max(1, gw * CW * DPR);
  canvas.height = Math.max(1, gh * CH * DPR);
  const scale = Math.min(1, innerWidth / (gw * CW), (innerHeight - BAR_PX) / (gh * CH));
  canvas.style.width = (gw * CW * scale) + 'px';
  canvas.style.height = (gh * CH * scale) + 'px';
  ctx.setTransform(DPR, 0, 0, DPR, 0, 0);
  ctx.font = FONT;
  ctx.textBaseline = 'alphabetic';
  ctx.imageSmoothingEnabled = true;
}

function redrawAll() { for (let i = 0; i < gw * gh; i++) drawCell(i); }

// Apply one inflated frame body (see protocol.rs).
function applyBody(buf) {
  const d = new DataView(buf);
  const w = d.getUint16(0, true), h = d.getUint16(2, true), full = d.getUint8(4) === 1;
  if (full || w !== gw || h !== gh) {
    if (!full) return;
    gw = w; gh = h;
    chars = new Uint32Array(w * h); fg = new Uint8Array(w * h * 3); bg = new Uint8Array(w * h * 3);
    setupCanvas();
  }
  let at = 5;
  while (at < buf.byteLength) {
    const start = d.getUint32(at, true), count = d.getUint16(at + 4, true);
    at += 6;
    for (let k = 0; k < count; k++, at += 10) {
      const i = start + k;
      if (i >= w * h) continue;
      chars[i] = d.getUint32(at, true);
      fg[i * 3] = d.getUint8(at + 4); fg[i * 3 + 1] = d.getUint8(at + 5); fg[i * 3 + 2] = d.getUint8(at + 6);
      bg[i * 3] = d.getUint8(at + 7); bg[i * 3 + 1] = d.getUint8(at + 8); bg[i * 3 + 2] = d.getUint8(at + 9);
      drawCell(i);
    }
  }
  state.frames++;
}

async function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(stream).arrayBuffer();
}

function say(text, error) {
  notice.textContent = text;
  notice.className = error ? 'error' : '';
  (error ? state.errors : state.notices).push(text);
}

function describe() {
  if (role === 'player') what.textContent = `playing ${state.game} (game ${state.id}) — Esc and the game's keys; mouse works`;
  else if (role === 'spectator') what.textContent = `watching game ${state.id} (${state.game}) — ← or Home: look back, → step, Esc or L: live`;
  else what.textContent = `replay of ${state.game} — space plays, ← → step, Home End jump, q leaves`;
}

let ws = null, chain = Promise.resolve(), retry = 500;

function send(obj) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj)); }

function gridSize() {
  const w = Math.max(20, Math.min(300, Math.floor(innerWidth / CW)));
  const h = Math.max(8, Math.min(120, Math.floor((innerHeight - BAR_PX) / CH)));
  return { w, h };
}

function sendSize() { const s = gridSize(); send({ t: 'resize', w: s.w, h: s.h }); }

function connect() {
  const proto = location.protocol === 'https:' ? 'wss://' : 'ws://';
  ws = new WebSocket(proto + location.host + wsPath);
  ws.binaryType = 'arraybuffer';
  ws.onopen = () => {
    state.connected = true; retry = 500;
    overlay.classList.remove('shown');
    sendSize();
  };
  ws.onmessage = (ev) => {
    const data = ev.data;
    chain = chain.then(async () => {
      if (typeof data === 'string') return onJson(JSON.parse(data));
      const bytes = new Uint8Array(data);
      if (bytes[0] !== 70) return;
      applyBody(await inflate(bytes.subarray(1)));
    }).catch((e) => say('bad message from the server: ' + e, true));
  };
  ws.onclose = () => {
    state.connected = false;
    chain = chain.then(() => {
      if (state.ended !== null) return;
      overlayText.textContent = 'Connection lost — reconnecting to the same game…';
      overlay.classList.add('shown');
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    });
  };
}

function onJson(m) {
  if (m.t === 'hello') {
    state.id = m.id; state.game = m.game; state.role = m.role;
    describe();
    // A reload comes back to this very game.
    if (m.role === 'player' && !location.search.includes('id=')) history.replaceState(null, '', '/play?id=' + m.id);
  } else if (m.t === 'error') {
    say(m.msg, true);
    if (!state.connected) return;
  } else if (m.t === 'notice') {
    say(m.msg, false);
  } else if (m.t === 'ended') {
    state.ended = m.msg;
    state.summary = m.summary || null;
    overlayText.replaceChildren();
    if (m.summary) overlayText.append(...summaryNodes(m.summary));
    else {
      const p = document.createElement('div'); p.textContent = m.msg;
      overlayText.append(p);
    }
    overlayText.append(link('/', 'back to the lobby', 'lobby'));
    // The last frame stays under it, dimmed (a prompt the game answered may be on it).
    overlay.classList.add('shown', 'final');
  }
}

// A link to one of this site's pages (`/games/7`…); anything else is not made a link.
function link(href, text, id) {
  const a = document.createElement('a');
  if (/^\/([a-z]+\/[A-Za-z0-9._-]+)?$/.test(href)) a.href = href;
  a.textContent = text;
  if (id) a.id = id;
  return a;
}

// The end of a game (protocol.rs, GameSummary): how it ended, where, after how many turns,
// the score, and links to its pages. Text only: nothing the server sends becomes markup.
function summaryNodes(s) {
  const head = document.createElement('div');
  head.id = 'headline';
  head.className = s.won ? 'won' : 'lost';
  head.textContent = s.headline;
  const table = document.createElement('table');
  table.id = 'summary';
  const rows = [['Cause', s.cause], ['Depth', s.depth == null ? '—' : String(s.depth)],
    ['Turns', String(s.turns)], ['Score', s.score == null ? '—' : String(s.score)]];
  for (const [k, v] of rows) {
    const tr = table.insertRow();
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = v;
  }
  const links = document.createElement('div');
  links.id = 'end-links';
  const l = s.links || {};
  const named = [[l.morgue, 'morgue file', 'morgue-link'], [l.replay, 'replay', 'replay-link'],
    [l.page, 'game page', 'page-link'], [l.recording, 'recording', 'recording-link']];
  for (const [href, text, id] of named) {
    if (!href) continue;
    if (links.childNodes.length) links.append(' · ');
    links.append(link(href, text, id));
  }
  return [head, table, links];
}

// Errors that refuse the connection arrive before it closes: stop retrying then.
const refusing = /no game|not yours|too many connections|server is full|no recording|no player token|another site|cannot replay|unknown game/;
const sayOrig = say;
say = function (text, error) {
  sayOrig(text, error);
  if (error && refusing.test(text)) {
    state.ended = text;
    overlayText.textContent = text;
    overlay.classList.add('shown');
  }
};

// Keys: every key the other frontends take.
const NAMED = { ArrowUp: 'Up', ArrowDown: 'Down', ArrowLeft: 'Left', ArrowRight: 'Right', Enter: 'Enter',
  Escape: 'Esc', Backspace: 'Backspace', Tab: 'Tab', Delete: 'Delete', Home: 'Home', End: 'End',
  PageUp: 'PageUp', PageDown: 'PageDown', Insert: 'Insert', Clear: { Keypad: 5 } };

function keyOf(e) {
  if (/^Numpad[0-9]$/.test(e.code) && /^[0-9]$/.test(e.key)) return { Keypad: Number(e.key) };
  if (NAMED[e.key]) return NAMED[e.key];
  const f = /^F([1-9]|1[0-9]|2[0-4])$/.exec(e.key);
  if (f) return { F: Number(f[1]) };
  if ([...e.key].length === 1) return { Char: e.key };
  return null;
}

function mods(e, isChar) { return { shift: !isChar && e.shiftKey, ctrl: e.ctrlKey, alt: e.altKey }; }

addEventListener('keydown', (e) => {
  // Leave the browser its own reload and tab keys.
  if (e.key === 'F5' || e.key === 'F11' || e.key === 'F12' || (e.ctrlKey && /^[rRwWtTlL]$/.test(e.key))) return;
  const key = keyOf(e);
  if (!key) return;
  e.preventDefault();
  const isChar = typeof key === 'object' && 'Char' in key;
  send({ t: 'input', input: { Key: { key, mods: mods(e, isChar) } } });
});

// The mouse: hover (once per new cell), buttons, wheel.
let lastCell = null;
function cellAt(e) {
  const r = canvas.getBoundingClientRect();
  if (gw === 0 || r.width === 0) return null;
  const x = Math.floor((e.clientX - r.left) / r.width * gw), y = Math.floor((e.clientY - r.top) / r.height * gh);
  if (x < 0 || y < 0 || x >= gw || y >= gh) return null;
  return { x, y };
}
function mouse(kind, e) {
  const c = cellAt(e);
  if (!c) return;
  send({ t: 'input', input: { Mouse: { kind, x: c.x, y: c.y, mods: mods(e, false) } } });
}
const BUTTONS = ['Left', 'Middle', 'Right'];
canvas.addEventListener('mousemove', (e) => {
  const c = cellAt(e);
  if (!c || (lastCell && lastCell.x === c.x && lastCell.y === c.y)) return;
  lastCell = c;
  mouse('Move', e);
});
canvas.addEventListener('mousedown', (e) => { if (BUTTONS[e.button]) mouse({ Down: BUTTONS[e.button] }, e); });
canvas.addEventListener('mouseup', (e) => { if (BUTTONS[e.button]) mouse({ Up: BUTTONS[e.button] }, e); });
canvas.addEventListener('contextmenu', (e) => e.preventDefault());
canvas.addEventListener('wheel', (e) => { e.preventDefault(); mouse(e.deltaY < 0 ? 'ScrollUp' : 'ScrollDown', e); }, { passive: false });

let resizeTimer = null;
addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { sendSize(); if (gw) { setupCanvas(); redrawAll(); } }, 120);
});

describe();
connect();
