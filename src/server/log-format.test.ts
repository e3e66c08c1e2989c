import { describe, expect, it } from 'vitest';
import { createServerLog } from './logging.js';
import { prettyLine } from './log-format.js';

const at = new Date(2026, 11, 2, 14, 5, 12).getTime();

describe('the readable server log', () => {
  it("puts the local time, level and message first, then a request's method, path, status and time", () => {
    const line = JSON.stringify({
      level: 30,
      time: at,
      pid: 1,
      hostname: 'clinic-pc',
      reqId: 'req-1',
      res: { statusCode: 200, method: 'GET', path: '/api/patients' },
      responseTime: 12.43,
      msg: 'request completed',
    });
    expect(prettyLine(line)).toBe(
      '2026-12-02 14:05:12 INFO  request completed GET /api/patients 200 12.4 ms reqId=req-1\n',
    );
  });

  it("reads lims's own request line (debug mode) the same way, other fields as key=value", () => {
    const line = JSON.stringify({
      level: 30,
      time: at,
      reqId: 'req-7',
      method: 'POST',
      path: '/api/bills',
      status: 201,
      ms: 40,
      userId: 3,
      msg: 'request (debug mode)',
    });
    expect(prettyLine(line)).toBe(
      '2026-12-02 14:05:12 INFO  request (debug mode) POST /api/bills 201 40 ms reqId=req-7 userId=3\n',
    );
  });

  it('gives an error its message and its stack, indented, below the line', () => {
    const line = JSON.stringify({
      level: 50,
      time: at,
      err: { type: 'Error', message: 'disk full', stack: 'Error: disk full\n    at write (x.js:1:1)' },
      file: '/var/lib/lims/backups/x.db',
      msg: 'scheduled backup failed',
    });
    expect(prettyLine(line)).toBe(
      '2026-12-02 14:05:12 ERROR scheduled backup failed file=/var/lib/lims/backups/x.db err="disk full"\n' +
        '    Error: disk full\n        at write (x.js:1:1)\n',
    );
  });

  it('passes a line that is not JSON through as it is', () => {
    expect(prettyLine('plain words')).toBe('plain words\n');
  });

  it('is what the server log writes with format pretty, with the JSON log redaction still applied', () => {
    const lines: string[] = [];
    const log = createServerLog({ format: 'pretty', stream: { write: (l: string) => void lines.push(l) } });
    log.info(
      { req: { id: 'r1', method: 'GET', url: '/api/patients?search=Meena', headers: { cookie: 's=secret' } } },
      'incoming request',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO {2}incoming request GET \/api\/patients\n$/);
    expect(lines[0]).not.toMatch(/Meena|secret/);
  });
});
