import {
  ACK,
  checkFrame,
  ENQ,
  EOT,
  frameEnd,
  frameMessage,
  LENIENT_MAX_FRAME_BYTES,
  MAX_FRAME_BYTES,
  NAK,
  STX,
  type FrameResult,
} from './frames.js';

/**
 * The E1381 data link as a state machine, free of sockets: bytes in through `receive()`, bytes out
 * through `write`, a whole transmission's text out through `onMessage`. One instance per connected
 * machine (a TCP socket or a serial port).
 *
 * Receiving: ENQ is answered ACK; each frame is checked (STX, frame number, checksum, CR LF, size)
 * and answered ACK or NAK; a frame repeated because our ACK was lost (the previous number again) is
 * answered ACK and not kept twice; EOT ends the transmission and hands its text on, unless a record
 * was left open (ETB without its ETX), when the whole transmission is dropped. Nothing arrives for
 * `receiveTimeoutMs` (30 s): the transmission is dropped.
 *
 * Sending (query answers): ENQ, then each frame until ACK (NAK or no answer in `ackTimeoutMs`:
 * sent again, at most `maxAttempts` times each, then EOT and give up), then EOT. A NAK to our ENQ
 * (the machine is busy) retries after `busyRetryMs`. Contention: the machine sends ENQ while we
 * wait for the answer to ours; the computer system yields (E1381 8.2.7.1), receives, and tries
 * again `contentionRetryMs` after the machine's EOT.
 */
export interface AstmLinkOptions {
  write: (bytes: Buffer) => void;
  onMessage: (text: string) => void;
  /** A transmission dropped (timeout, an open record at EOT): never handed on as results. */
  onAbort?: (reason: string, text: string) => void;
  /** A frame refused (answered NAK): for the message log. */
  onBadFrame?: (reason: string) => void;
  onSendDone?: (ok: boolean, reason?: string) => void;
  /**
   * A transmission passed `maxMessageBytes` or `maxFrames`: it is dropped (never handed on), the
   * frame that passed it answered NAK, and every further frame of it too until EOT. The session
   * closes a TCP line here; a serial line stays, refusing until the machine gives up.
   */
  onOverflow?: (reason: string, text: string) => void;
  /** A timer's work threw: the link stays usable, the caller logs it on the connection. */
  onError?: (err: unknown) => void;
  lenient?: boolean;
  /** The most text one transmission may hold (4 MiB). */
  maxMessageBytes?: number;
  /** The most frames one transmission may hold (32,768: 7.5 MiB at E1381's 240 characters). */
  maxFrames?: number;
  receiveTimeoutMs?: number;
  ackTimeoutMs?: number;
  busyRetryMs?: number;
  contentionRetryMs?: number;
  maxAttempts?: number;
}

type State = 'idle' | 'receiving' | 'discarding' | 'enq-sent' | 'sending' | 'waiting';

type Callbacks = 'onAbort' | 'onBadFrame' | 'onSendDone' | 'onOverflow' | 'onError';

export class AstmLink {
  private state: State = 'idle';
  private buf: Buffer = Buffer.alloc(0);
  private expected = 1;
  private text = '';
  private frameCount = 0;
  /** The last frame received ended in ETB: a record is open. */
  private open = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private outbox: Buffer[][] = [];
  private frames: Buffer[] = [];
  private frameAt = 0;
  private attempts = 0;
  private enqAttempts = 0;
  private closed = false;
  private readonly o: Required<Omit<AstmLinkOptions, Callbacks>> & Pick<AstmLinkOptions, Callbacks>;

  constructor(opts: AstmLinkOptions) {
    this.o = {
      lenient: false,
      receiveTimeoutMs: 30_000,
      ackTimeoutMs: 15_000,
      busyRetryMs: 10_000,
      contentionRetryMs: 20_000,
      maxAttempts: 6,
      maxMessageBytes: 4 * 1024 * 1024,
      maxFrames: 32_768,
      ...opts,
    };
  }

  get status(): State {
    return this.state;
  }

  /** Queues a message (its records) to send to the machine. */
  send(records: string[]): void {
    this.outbox.push(frameMessage(records));
    if (this.state === 'idle' && !this.retryTimer) this.startSending();
  }

  /** Stops every timer; a transmission in progress is dropped. */
  close(): void {
    this.closed = true;
    this.clearTimer();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.state === 'receiving' && this.text) this.o.onAbort?.('connection closed', this.text);
    this.state = 'idle';
  }

  receive(chunk: Uint8Array): void {
    if (this.closed) return;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk);
    while (this.buf.length > 0) {
      if (this.state === 'receiving' || this.state === 'discarding') {
        if (!this.receiveStep()) return;
        continue;
      }
      const b = this.buf[0]!;
      this.buf = this.buf.subarray(1);
      if (this.state === 'idle' || this.state === 'waiting') {
        if (b === ENQ) this.startReceiving();
        // Anything else between transmissions is line noise: dropped.
      } else if (this.state === 'enq-sent') {
        this.onReplyToEnq(b);
      } else if (this.state === 'sending') {
        this.onReplyToFrame(b);
      }
    }
  }

  /** One step while receiving; false when more bytes are needed. */
  private receiveStep(): boolean {
    const b = this.buf[0]!;
    if (b === EOT) {
      this.buf = this.buf.subarray(1);
      this.endReceiving();
      return true;
    }
    if (b !== STX) {
      this.buf = this.buf.subarray(1); // ENQ again, stray CR/LF: nothing to answer
      return true;
    }
    const end = frameEnd(this.buf, 0, { lenient: this.o.lenient });
    if (end === -1) {
      const limit = this.o.lenient ? LENIENT_MAX_FRAME_BYTES : MAX_FRAME_BYTES;
      if (this.buf.length <= limit) return false;
      this.buf = this.buf.subarray(limit);
      this.refuse({ ok: false, reason: 'too_long', size: limit });
      return true;
    }
    const frame = this.buf.subarray(0, end);
    this.buf = this.buf.subarray(end);
    this.armTimer(this.o.receiveTimeoutMs, () => this.abortReceiving('timeout'));
    if (this.state === 'discarding') {
      this.o.write(Buffer.from([NAK]));
      return true;
    }
    const r = checkFrame(frame, { lenient: this.o.lenient });
    if (!r.ok) {
      this.refuse(r);
      return true;
    }
    if (r.frame.number === this.expected) {
      if (this.frameCount + 1 > this.o.maxFrames) {
        this.overflow(`a transmission of more than ${this.o.maxFrames} frames`);
        return true;
      }
      if (this.text.length + r.frame.text.length > this.o.maxMessageBytes) {
        this.overflow(`a transmission over ${formatBytes(this.o.maxMessageBytes)}`);
        return true;
      }
      this.frameCount += 1;
      this.text += r.frame.text;
      this.open = !r.frame.final;
      this.expected = (this.expected + 1) % 8;
      this.o.write(Buffer.from([ACK]));
    } else if (r.frame.number === (this.expected + 7) % 8) {
      // The machine did not hear our ACK and sent the same frame again: ACK it, keep it once.
      this.o.write(Buffer.from([ACK]));
    } else {
      this.refuse({ ok: false, reason: 'number', size: r.frame.size });
    }
    return true;
  }

  /** The transmission passed a limit: dropped whole, this frame and the rest refused until EOT. */
  private overflow(reason: string) {
    const text = this.text;
    this.text = '';
    this.frameCount = 0;
    this.open = false;
    this.state = 'discarding';
    this.o.write(Buffer.from([NAK]));
    this.o.onOverflow?.(reason, text);
  }

  private refuse(r: Extract<FrameResult, { ok: false }>) {
    this.o.onBadFrame?.(r.reason);
    this.o.write(Buffer.from([NAK]));
  }

  private startReceiving() {
    this.state = 'receiving';
    this.expected = 1;
    this.text = '';
    this.frameCount = 0;
    this.open = false;
    this.o.write(Buffer.from([ACK]));
    this.armTimer(this.o.receiveTimeoutMs, () => this.abortReceiving('timeout'));
  }

  private endReceiving() {
    this.clearTimer();
    const text = this.text;
    const open = this.open;
    const discarded = this.state === 'discarding';
    this.text = '';
    this.frameCount = 0;
    this.state = 'idle';
    if (discarded) {
      this.afterReceiving();
      return;
    }
    if (open) this.o.onAbort?.('EOT inside an unfinished record', text);
    else if (text) this.o.onMessage(text);
    this.afterReceiving();
  }

  private abortReceiving(reason: string) {
    const text = this.text;
    const discarded = this.state === 'discarding';
    this.text = '';
    this.frameCount = 0;
    this.state = 'idle';
    this.buf = Buffer.alloc(0);
    if (!discarded) this.o.onAbort?.(reason, text);
    this.afterReceiving();
  }

  private afterReceiving() {
    if (this.outbox.length && !this.retryTimer) this.scheduleRetry(this.o.contentionRetryMs);
  }

  private scheduleRetry(ms: number) {
    this.state = 'waiting';
    this.retryTimer = setTimeout(
      this.guarded(() => {
        this.retryTimer = null;
        if (this.state === 'waiting') {
          this.state = 'idle';
          this.startSending();
        }
      }),
      ms,
    );
  }

  private startSending() {
    if (this.closed || !this.outbox.length) return;
    this.state = 'enq-sent';
    this.enqAttempts += 1;
    this.o.write(Buffer.from([ENQ]));
    this.armTimer(this.o.ackTimeoutMs, () => {
      // No answer to ENQ: end the attempt with EOT and try again later.
      this.o.write(Buffer.from([EOT]));
      this.giveUpOrRetry('no answer to ENQ');
    });
  }

  private giveUpOrRetry(reason: string) {
    if (this.enqAttempts >= this.o.maxAttempts) {
      this.outbox.shift();
      this.enqAttempts = 0;
      this.state = 'idle';
      this.o.onSendDone?.(false, reason);
      if (this.outbox.length) this.scheduleRetry(this.o.busyRetryMs);
      return;
    }
    this.scheduleRetry(this.o.busyRetryMs);
  }

  private onReplyToEnq(b: number) {
    if (b === ACK) {
      this.clearTimer();
      this.enqAttempts = 0;
      this.state = 'sending';
      this.frames = this.outbox[0]!;
      this.frameAt = 0;
      this.attempts = 0;
      this.sendFrame();
    } else if (b === NAK) {
      this.clearTimer();
      this.giveUpOrRetry('the machine is busy');
    } else if (b === ENQ) {
      // Contention: the machine wins; receive its transmission first.
      this.clearTimer();
      this.enqAttempts = Math.max(0, this.enqAttempts - 1);
      this.startReceiving();
    }
  }

  private sendFrame() {
    this.attempts += 1;
    this.o.write(this.frames[this.frameAt]!);
    this.armTimer(this.o.ackTimeoutMs, () => this.retransmit('no answer to a frame'));
  }

  private retransmit(reason: string) {
    if (this.attempts >= this.o.maxAttempts) {
      this.clearTimer();
      this.o.write(Buffer.from([EOT]));
      this.outbox.shift();
      this.state = 'idle';
      this.o.onSendDone?.(false, reason);
      if (this.outbox.length) this.scheduleRetry(this.o.busyRetryMs);
      return;
    }
    this.sendFrame();
  }

  private onReplyToFrame(b: number) {
    if (b === ACK || b === EOT) {
      // EOT: the receiver asks us to stop after this frame (E1381 8.3.5), taken as an ACK.
      this.clearTimer();
      this.frameAt += 1;
      this.attempts = 0;
      if (this.frameAt < this.frames.length) {
        this.sendFrame();
        return;
      }
      this.o.write(Buffer.from([EOT]));
      this.outbox.shift();
      this.state = 'idle';
      this.o.onSendDone?.(true);
      if (this.outbox.length) this.scheduleRetry(0);
    } else if (b === NAK) {
      this.clearTimer();
      this.retransmit('frame refused');
    }
  }

  private armTimer(ms: number, fn: () => void) {
    this.clearTimer();
    this.timer = setTimeout(
      this.guarded(() => {
        this.timer = null;
        fn();
      }),
      ms,
    );
  }

  /** A timer's work: whatever it throws goes to onError, never up to the event loop (it would end the process). */
  private guarded(fn: () => void): () => void {
    return () => {
      try {
        fn();
      } catch (err) {
        this.o.onError?.(err);
      }
    };
  }

  private clearTimer() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${Math.round(n / 1024)} KiB`;
}
