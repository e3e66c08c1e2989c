import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';

/** A CSV download named "<name>-<YYYY-MM-DD>.csv". */
export function sendCsv(reply: FastifyReply, name: string, body: Readable | string): FastifyReply {
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${day}.csv"`)
    .send(body);
}

/** A PDF shown inline, or downloaded when the query says download=1. */
export function sendPdf(reply: FastifyReply, fileName: string, pdf: Buffer, download = false): FastifyReply {
  return reply
    .type('application/pdf')
    .header('content-disposition', `${download ? 'attachment' : 'inline'}; filename="${fileName}"`)
    .send(pdf);
}
