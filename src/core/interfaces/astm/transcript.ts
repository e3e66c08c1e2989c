import { checkFrame, frameEnd, STX } from './frames.js';

/**
 * The text of a captured transcript (`lims interface import`): the frames in it are checked and
 * joined (ENQ, ACK, EOT and line noise between frames are skipped). A file with no STX at all is
 * taken as bare records. Any frame that fails its check makes the whole file refused: half a
 * message is never imported.
 */
export function decodeTranscript(
  bytes: Uint8Array,
  lenient: boolean,
): { ok: true; text: string; frames: number } | { ok: false; error: string } {
  if (!bytes.includes(STX)) return { ok: true, text: Buffer.from(bytes).toString('latin1'), frames: 0 };
  let at = 0;
  let text = '';
  let frames = 0;
  let open = false;
  while (at < bytes.length) {
    if (bytes[at] !== STX) {
      at += 1;
      continue;
    }
    const end = frameEnd(bytes, at, { lenient: true });
    const stop = end === -1 ? bytes.length : end;
    const r = checkFrame(bytes.subarray(at, stop), { lenient });
    if (!r.ok) return { ok: false, error: `Frame ${frames + 1} is refused (${r.reason}, ${r.size} bytes)` };
    text += r.frame.text;
    open = !r.frame.final;
    frames += 1;
    at = stop;
  }
  if (open) return { ok: false, error: 'The transcript ends inside a record (ETB without its ETX)' };
  return { ok: true, text, frames };
}
