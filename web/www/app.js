// The page: draws the board a Session describes, highlights the legal moves, plays
// clicks and typed moves through the Session (which checks them), and asks the
// engine in worker.js for its moves, so the page never blocks on a search.
//
// URL parameters: game=SPEC, position=TEXT, moves=M1+M2 (played after the position),
// first=human|engine, second=human|engine, time=MS; selftest=N plays N plies (engine
// moves through the Worker and clicked moves, alternately) and writes what it saw into
// <pre id="log">, then POSTs it to /selftest-report when report=NAME is given
// (scripts/test-web.sh).
import init, { Session, games } from './pkg/ply_web.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

const ui = {
  session: null,
  board: null,
  moves: [],
  selected: null, // the cell of the piece picked up
  choice: [], // moves that end on the clicked cell when several do
  lastPath: [],
  shownPosition: null,
  thinking: null, // { id, resolve } while the worker searches
  scheduled: false, // an engine move is about to be asked for
  replyWaiters: [], // called with each engine reply once it is played (self-test)
  worker: null,
  nextId: 1,
};

function showError(text) {
  $('error').textContent = text;
}

function clearError() {
  $('error').textContent = '';
}

function makeWorker() {
  const w = new Worker('worker.js', { type: 'module' });
  w.onmessage = onEngineReply;
  w.onerror = (e) => {
    showError(`engine worker failed: ${e.message || 'could not start'}`);
    finishThinking({ ok: false, error: 'worker failed' });
  };
  return w;
}

function playerOf(side) {
  return $(side === 'first' ? 'first-player' : 'second-player').value;
}

function isHumanTurn() {
  const s = ui.session;
  return s !== null && ui.thinking === null && s.outcome() === 'ongoing' && playerOf(s.side_to_move()) === 'human';
}

function timeLimit() {
  const t = Math.round(Number($('time').value));
  return Number.isFinite(t) ? Math.min(Math.max(t, 10), 600000) : 1000;
}

// Cell size in pixels: the boards differ from 3 to 16 cells a side.
function cellSize(board) {
  if (board.rows === 2) return 72; // Kalah
  if (board.cols <= 3) return 96;
  if (board.cols <= 8) return 56;
  return 32;
}

function gameClass(spec) {
  const name = spec.split(':')[0].toLowerCase();
  if (['tictactoe', 'tic-tac-toe', 'ttt'].includes(name)) return 'g-tictactoe';
  if (['kalah', 'mancala'].includes(name)) return 'g-kalah';
  if (['checkers', 'draughts'].includes(name)) return 'g-draughts';
  return 'g-halma';
}

function cellElement(i) {
  return $('board').querySelector(`[data-cell="${i}"]`);
}

function render() {
  const s = ui.session;
  ui.board = JSON.parse(s.board_json());
  ui.moves = JSON.parse(s.moves_json());
  const human = isHumanTurn();
  const movable = new Set();
  const targets = new Set();
  if (human) {
    for (const m of ui.moves) {
      if (m.from !== null) movable.add(m.from);
      else if (m.to !== null) movable.add(m.to);
      if (ui.selected !== null && m.from === ui.selected) targets.add(m.to);
    }
  }
  const b = ui.board;
  const el = $('board');
  el.className = `board ${gameClass(s.spec())}`;
  el.style.setProperty('--cell', `${cellSize(b)}px`);
  el.style.gridTemplateColumns = `repeat(${b.cols}, var(--cell))`;
  el.style.gridTemplateRows = `repeat(${b.rows}, var(--cell))`;
  const last = new Set(ui.lastPath);
  const cells = b.cells.map((c, i) => {
    const d = document.createElement('div');
    d.className = `cell ${c.s}`;
    d.dataset.cell = String(i);
    d.style.gridRow = `${c.r + 1} / span ${c.rs}`;
    d.style.gridColumn = String(c.c + 1);
    d.title = c.n;
    if (c.s === 'dark') {
      const label = document.createElement('span');
      label.className = 'label';
      label.textContent = c.n;
      d.append(label);
    }
    if (c.p) {
      const p = document.createElement('div');
      p.className = `piece ${c.p}`;
      p.textContent = c.t;
      d.append(p);
    }
    if (last.has(i)) d.classList.add('last');
    if (movable.has(i)) d.classList.add('movable');
    if (i === ui.selected) d.classList.add('selected');
    if (targets.has(i)) d.classList.add('target');
    d.addEventListener('click', () => clickCell(i));
    return d;
  });
  el.replaceChildren(...cells);

  $('status').textContent = s.status() + (ui.thinking ? ' — engine thinking…' : '');
  const list = ui.moves.map((m) => {
    const btn = document.createElement('button');
    btn.textContent = m.text;
    btn.className = 'move';
    if (ui.choice.includes(m.text)) btn.classList.add('choice');
    btn.disabled = ui.thinking !== null;
    btn.addEventListener('click', () => playMove(m.text));
    btn.addEventListener('mouseenter', () => hint(m.path, true));
    btn.addEventListener('mouseleave', () => hint(m.path, false));
    return btn;
  });
  $('moves').replaceChildren(...list);
  if (list.length === 0) $('moves').textContent = '(none: the game is over)';
  const pos = s.position();
  if (pos !== ui.shownPosition) {
    $('position').value = pos;
    ui.shownPosition = pos;
  }
  const played = s.moves_played();
  $('history').textContent = played.length ? played.join(' ') : '(none)';
  $('stop').disabled = ui.thinking === null;
  $('engine-move').disabled = ui.thinking !== null || s.outcome() !== 'ongoing';
}

function hint(path, on) {
  for (const i of path) cellElement(i)?.classList.toggle('hint', on);
}

function clickCell(i) {
  if (!isHumanTurn()) return;
  const moves = ui.moves;
  if (ui.selected !== null) {
    const ends = moves.filter((m) => m.from === ui.selected && m.to === i);
    if (ends.length === 1) return playMove(ends[0].text);
    if (ends.length > 1) {
      ui.choice = ends.map((m) => m.text);
      showError(`${ends.length} moves end there: pick one in the list of legal moves`);
      return render();
    }
  }
  const puts = moves.filter((m) => m.from === null && m.to === i);
  if (puts.length === 1) return playMove(puts[0].text);
  ui.choice = [];
  ui.selected = moves.some((m) => m.from === i) && ui.selected !== i ? i : null;
  render();
}

// Plays a move given as text; the Session refuses an illegal one with its reason.
function playMove(text) {
  const s = ui.session;
  try {
    s.play(text);
  } catch (e) {
    showError(String(e));
    return false;
  }
  // The move as the session wrote it, whatever notation it was typed in.
  const playedText = s.moves_played().at(-1);
  const found = ui.moves.find((m) => m.text === playedText);
  clearError();
  ui.selected = null;
  ui.choice = [];
  ui.lastPath = found ? found.path : [];
  render();
  scheduleEngine();
  return true;
}

function scheduleEngine() {
  const s = ui.session;
  if (!ui.scheduled && ui.thinking === null && s.outcome() === 'ongoing' && playerOf(s.side_to_move()) === 'engine') {
    ui.scheduled = true;
    // A moment for the page to draw the move just played.
    setTimeout(() => {
      ui.scheduled = false;
      if (ui.thinking === null && ui.session.outcome() === 'ongoing' && playerOf(ui.session.side_to_move()) === 'engine') {
        requestEngineMove();
      }
    }, 30);
  }
}

function nextEngineReply() {
  return new Promise((resolve) => ui.replyWaiters.push(resolve));
}

// Asks the worker for a move in the current position; resolves with its reply once
// the move is played (or with { ok: false } when stopped or failed).
function requestEngineMove() {
  const s = ui.session;
  if (ui.thinking !== null || s.outcome() !== 'ongoing') return Promise.resolve({ ok: false, error: 'not now' });
  const id = ui.nextId++;
  const timeMs = timeLimit();
  const promise = new Promise((resolve) => {
    ui.thinking = { id, resolve, started: performance.now() };
  });
  ui.worker.postMessage({ id, spec: s.spec(), base: s.base_position(), moves: s.moves_played(), timeMs });
  render();
  return promise;
}

function finishThinking(reply) {
  const t = ui.thinking;
  ui.thinking = null;
  if (t) t.resolve(reply);
  for (const w of ui.replyWaiters.splice(0)) w(reply);
}

function onEngineReply(event) {
  const reply = event.data;
  if (ui.thinking === null || reply.id !== ui.thinking.id) return; // a stopped search
  const wall = Math.round(performance.now() - ui.thinking.started);
  const t = ui.thinking;
  ui.thinking = null;
  if (reply.ok) {
    const r = reply.report;
    $('engine-info').textContent =
      `engine: ${r.move} · depth ${r.depth} · value ${r.value} · ${r.nodes.toLocaleString('en')} nodes · ${r.ms} ms`;
    playMove(r.move);
  } else {
    showError(`engine: ${reply.error}`);
    render();
  }
  t.resolve({ ...reply, wall });
  for (const w of ui.replyWaiters.splice(0)) w({ ...reply, wall });
}

function stopEngine() {
  if (ui.thinking === null) return;
  ui.worker.terminate();
  ui.worker = makeWorker();
  finishThinking({ ok: false, error: 'stopped' });
  $('engine-info').textContent = 'engine stopped';
}

function newGame(spec) {
  let s;
  try {
    s = new Session(spec);
  } catch (e) {
    showError(String(e));
    return false;
  }
  stopEngine();
  if (ui.session !== null) ui.session.free();
  ui.session = s;
  ui.selected = null;
  ui.choice = [];
  ui.lastPath = [];
  ui.shownPosition = null;
  $('spec').value = s.spec();
  $('first-name').textContent = s.player_name(true);
  $('second-name').textContent = s.player_name(false);
  $('engine-info').textContent = '';
  clearError();
  render();
  return true;
}

function setPosition(text) {
  stopEngine();
  try {
    ui.session.set_position(text);
  } catch (e) {
    showError(String(e));
    render();
    return false;
  }
  clearError();
  ui.selected = null;
  ui.choice = [];
  ui.lastPath = [];
  render();
  scheduleEngine();
  return true;
}

function takeBack() {
  stopEngine();
  const s = ui.session;
  if (!s.undo()) return showError('no move to take back');
  // Back to a human's turn when one side is the engine.
  const humans = ['first', 'second'].filter((side) => playerOf(side) === 'human').length;
  if (humans === 1 && playerOf(s.side_to_move()) === 'engine' && s.moves_played().length > 0) s.undo();
  clearError();
  ui.selected = null;
  ui.choice = [];
  ui.lastPath = [];
  render();
}

function wire() {
  const list = $('games');
  for (const g of games()) {
    const o = document.createElement('option');
    o.value = g;
    list.append(o);
  }
  $('new-game').addEventListener('click', () => newGame($('spec').value));
  $('spec').addEventListener('keydown', (e) => e.key === 'Enter' && newGame($('spec').value));
  $('set-position').addEventListener('click', () => setPosition($('position').value));
  $('play-move').addEventListener('click', () => {
    if (ui.thinking === null && playMove($('move-text').value)) $('move-text').value = '';
  });
  $('move-text').addEventListener('keydown', (e) => e.key === 'Enter' && $('play-move').click());
  $('engine-move').addEventListener('click', () => requestEngineMove());
  $('stop').addEventListener('click', () => {
    stopEngine();
    render();
  });
  $('undo').addEventListener('click', takeBack);
  for (const id of ['first-player', 'second-player']) {
    $(id).addEventListener('change', () => {
      render();
      scheduleEngine();
    });
  }
}

// ---- self-test (scripts/test-web.sh) ----

// Sets the player menus as a user would (the page redraws on the change).
function choosePlayers(players) {
  for (const [side, who] of Object.entries(players)) {
    const menu = $(`${side}-player`);
    if (menu.value !== who) {
      menu.value = who;
      menu.dispatchEvent(new Event('change'));
    }
  }
}

async function selftest(plies) {
  const s = ui.session;
  const lines = [];
  const errors = [];
  const log = $('log');
  log.hidden = false;
  const note = (obj) => {
    lines.push(JSON.stringify(obj));
    log.textContent = lines.join('\n');
  };
  const shownMoves = () => [...$('moves').querySelectorAll('button')].map((b) => b.textContent);
  note({ game: s.spec(), start: s.position() });
  for (let k = 0; k < plies && s.outcome() === 'ongoing'; k++) {
    const position = s.position();
    const moves = s.legal_moves();
    if (JSON.stringify(shownMoves()) !== JSON.stringify(moves)) {
      errors.push(`ply ${k}: the list on the page ${JSON.stringify(shownMoves())} is not the session's ${JSON.stringify(moves)}`);
    }
    if ($('position').value !== position) errors.push(`ply ${k}: the position box shows ${JSON.stringify($('position').value)}`);
    const entry = { ply: k, position, moves };
    if (k % 2 === 0) {
      // The engine: started by the page itself after the clicked move when its side
      // is set to the engine, else by the Engine move button.
      const auto = ui.scheduled || ui.thinking !== null;
      const replied = nextEngineReply();
      if (!auto) $('engine-move').click();
      const reply = await replied;
      if (!reply.ok) {
        errors.push(`ply ${k}: engine: ${reply.error}`);
        break;
      }
      Object.assign(entry, {
        by: auto ? 'engine (its turn)' : 'engine (button)',
        played: reply.report.move,
        value: reply.report.value,
        depth: reply.report.depth,
        ms: reply.report.ms,
        wall: reply.wall,
      });
    } else {
      // A user's move; the opponent answers by itself if it is the engine's turn next.
      const mover = s.side_to_move();
      const other = mover === 'first' ? 'second' : 'first';
      choosePlayers({ [mover]: 'human', [other]: k + 1 < plies ? 'engine' : 'human' });
      const m = ui.moves[(k * 7 + 3) % ui.moves.length];
      entry.played = m.text;
      const twins = ui.moves.filter((x) => x.from === m.from && x.to === m.to);
      if (m.to === null || twins.length > 1) {
        entry.by = 'list';
        [...$('moves').querySelectorAll('button')].find((b) => b.textContent === m.text).click();
      } else if (m.from === null) {
        entry.by = 'click';
        if (!cellElement(m.to).classList.contains('movable')) errors.push(`ply ${k}: cell ${m.to} of ${m.text} not highlighted`);
        cellElement(m.to).click();
      } else {
        entry.by = 'clicks';
        if (!cellElement(m.from).classList.contains('movable')) errors.push(`ply ${k}: cell ${m.from} of ${m.text} not highlighted`);
        cellElement(m.from).click();
        if (!cellElement(m.from).classList.contains('selected')) errors.push(`ply ${k}: cell ${m.from} not selected after a click`);
        if (!cellElement(m.to).classList.contains('target')) errors.push(`ply ${k}: destination ${m.to} of ${m.text} not highlighted`);
        cellElement(m.to).click();
      }
    }
    const played = s.moves_played();
    if (played[played.length - 1] !== entry.played || !moves.includes(entry.played)) {
      errors.push(`ply ${k}: ${entry.played} was not played as a legal move (played: ${played.join(' ')})`);
    }
    note(entry);
  }
  choosePlayers({ first: 'human', second: 'human' });
  note({ final: s.position(), moves: s.legal_moves(), outcome: s.outcome(), played: s.moves_played() });

  // What a user sees for bad input: the reason, and an unchanged position.
  const before = s.position();
  $('position').value = 'not a position';
  $('set-position').click();
  const badPosition = $('error').textContent;
  if (!badPosition.startsWith('bad position') || s.position() !== before) errors.push(`bad position text: shown ${JSON.stringify(badPosition)}`);
  $('move-text').value = 'zz9';
  $('play-move').click();
  const badMove = $('error').textContent;
  if (s.outcome() === 'ongoing' && !badMove.startsWith('bad move') && !badMove.startsWith('illegal move')) {
    errors.push(`bad move text: shown ${JSON.stringify(badMove)}`);
  }
  setPosition(before);

  // The page stays live while the engine thinks, and Stop ends a search at once:
  // a 20 s search is stopped after 300 ms, during which timers must keep running.
  let stop = 'skipped: the game is over';
  if (s.outcome() === 'ongoing') {
    const played = s.moves_played().length;
    $('time').value = '20000';
    const stopped = nextEngineReply();
    $('engine-move').click();
    let ticks = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 300) {
      await new Promise((r) => setTimeout(r, 0));
      ticks += 1;
    }
    $('stop').click();
    const reply = await stopped;
    let how = `stopped after ${ticks} timer ticks`;
    if (reply.ok) {
      // A forced result found early ends a search by itself: nothing left to stop.
      how = `the search ended by itself (${reply.report.move}) before Stop, after ${ticks} timer ticks`;
      $('undo').click();
    } else if (ui.thinking !== null || s.moves_played().length !== played) {
      errors.push('Stop did not stop the engine');
    }
    if (ticks < 3) errors.push(`the page froze while the engine thought (${ticks} timer ticks in 300 ms)`);
    // A fresh worker answers the next request.
    $('time').value = '50';
    const again = nextEngineReply();
    $('engine-move').click();
    const next = await again;
    if (!next.ok) errors.push(`no engine move after Stop: ${next.error}`);
    else $('undo').click();
    if (s.position() !== before) errors.push('the position changed after Stop and Take back');
    stop = `${how}; the next search gave ${next.ok ? next.report.move : 'nothing'}`;
  }
  note({ checks: { badPosition, badMove, stop }, errors });
  if (params.has('report')) {
    await fetch(`/selftest-report?name=${encodeURIComponent(params.get('report'))}`, {
      method: 'POST',
      body: `${lines.join('\n')}\n`,
    });
  }
  document.title = 'selftest done';
}

async function main() {
  try {
    await init();
  } catch (e) {
    $('status').textContent = 'the WebAssembly module did not load: build it with scripts/web.sh';
    showError(String(e));
    return;
  }
  wire();
  ui.worker = makeWorker();
  for (const side of ['first', 'second']) {
    const v = params.get(side);
    if (v === 'human' || v === 'engine') $(`${side}-player`).value = v;
  }
  if (params.has('time')) $('time').value = params.get('time');
  const selftestPlies = params.has('selftest') ? Number(params.get('selftest')) : null;
  if (selftestPlies !== null) {
    // The self-test drives both sides itself.
    $('first-player').value = 'human';
    $('second-player').value = 'human';
    if (!params.has('time')) $('time').value = '100';
  }
  if (!newGame(params.get('game') || 'tictactoe')) newGame('tictactoe');
  if (params.has('position')) setPosition(params.get('position'));
  for (const m of (params.get('moves') || '').split(/\s+/).filter(Boolean)) {
    if (!playMove(m)) break;
  }
  if (selftestPlies !== null) await selftest(selftestPlies);
  else scheduleEngine();
}

main();
