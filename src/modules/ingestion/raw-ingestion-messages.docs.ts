import { defineDocs, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const RAW_INGESTION_MESSAGES_DOCS = defineDocs({
  rawIngestionMessages_list: {
    summary: 'List stored raw uplinks',
    description: lines(
      'Newest first by `receivedAt`, without bodies. Filters: `tenantId`, `credentialId` (unknown → 400 `reference_not_found`), `deviceId`, `devEui` (any case), `source`, `processingStatus`.',
      '**Time window**: `from` and `to` (RFC 3339) are a pair, both or neither: one alone is 400 `required`, `from >= to` is `range`, a span over 31 days is `max_span`; neither means the last 24 hours; half-open `[from, to)`.',
      '**Paging** (newest-first family): `limit` 1..100 (default 25); `items` and `nextCursor`, no total; the first page fixes the upper anchor min(`to`, now).',
    ),
  },
  rawIngestionMessages_get: {
    summary: 'Read one stored raw uplink with its exact body',
    description: '`body` {`contentType`, `encoding`, `data`} is the exact request body: `utf8` when the bytes are valid UTF-8, else `base64`. `receivedAt` (optional) is a lookup hint. Every read is audited as `raw_ingestion_message.read`.',
  },
});
