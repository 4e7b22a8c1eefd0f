// The engine's thread: a Session of its own, brought to the page's position by
// replaying the page's base position and moves (so draughts' history is the same),
// then searched under the time limit. The page never waits on it: it posts a request
// and goes on; Stop terminates this worker.
import init, { Session } from './pkg/ply_web.js';

const ready = init();
let session = null;

self.onmessage = async (event) => {
  const { id, spec, base, moves, timeMs } = event.data;
  try {
    await ready;
    if (session === null || session.spec() !== spec) {
      if (session !== null) session.free();
      session = new Session(spec);
    }
    session.set_position(base);
    for (const m of moves) session.play(m);
    const report = JSON.parse(session.engine_move(timeMs));
    self.postMessage({ id, ok: true, report });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err) });
  }
};
