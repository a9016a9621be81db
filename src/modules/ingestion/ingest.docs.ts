import { defineDocs, lines } from '../../shared/http/route-docs';

/** A ChirpStack v4 HTTP integration `up` event, as ChirpStack posts it (JSON payload encoding). */
export const CHIRPSTACK_UP_EXAMPLE = {
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time: '2026-03-14T09:34:15.775023242+00:00',
  deviceInfo: {
    tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
    tenantName: 'ChirpStack',
    applicationId: '17c82e96-be03-4f38-aef3-f83d48582d97',
    applicationName: 'Water meters',
    deviceProfileId: '14855bf7-d10d-4aee-b618-ebfcb64dc7ad',
    deviceProfileName: 'Ultrasonic meter',
    deviceName: 'meter-17',
    devEui: '0101010101010101',
    deviceClassEnabled: 'CLASS_A',
    tags: {},
  },
  devAddr: '00189440',
  dr: 5,
  fPort: 1,
  fCnt: 1287,
  data: 'AQIDBA==',
  rxInfo: [
    {
      gatewayId: '0016c001f153a14c',
      uplinkId: 4217106255,
      rssi: -36,
      snr: 10.5,
      context: 'E3OWOQ==',
      metadata: { region_config_id: 'eu868', region_common_name: 'EU868' },
      crcStatus: 'CRC_OK',
    },
  ],
  txInfo: { frequency: 867100000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } } },
  object: { volume: 1234.5, battery: 3.6 },
};

/** A The Things Stack v3 webhook `uplink_message`, as TTS posts it. */
export const TTS_UPLINK_EXAMPLE = {
  end_device_ids: {
    device_id: 'eui-0004a30b001c0530',
    application_ids: { application_id: 'water-meters' },
    dev_eui: '0004A30B001C0530',
    join_eui: '70B3D57ED0000000',
    dev_addr: '260B1A2C',
  },
  correlation_ids: ['as:up:01HRZ8Q4J6TQ7H0K3V5N2M8P9W', 'ns:uplink:01HRZ8Q4HZ0Y1X2W3V4U5T6S7R'],
  received_at: '2026-03-14T09:34:15.912345678Z',
  uplink_message: {
    session_key_id: 'AYZ3N5Qx1s3Hc1fQ0q8Xkw==',
    f_port: 2,
    f_cnt: 1287,
    frm_payload: 'AQIDBA==',
    decoded_payload: { volume: 1234.5, battery: 3.6 },
    rx_metadata: [
      {
        gateway_ids: { gateway_id: 'eui-b827ebfffe123456', eui: 'B827EBFFFE123456' },
        time: '2026-03-14T09:34:15.601Z',
        timestamp: 2395022419,
        rssi: -97,
        channel_rssi: -97,
        snr: 7.25,
        uplink_token: 'CiIKIAoUZXVpLWI4MjdlYmZmZmUxMjM0NTYSCLgn6//+EjRWENOI/ocJGgsIh4W9zwYQ8Ni8JSCY+rqSlrAD',
        received_at: '2026-03-14T09:34:15.640211Z',
      },
    ],
    settings: {
      data_rate: { lora: { bandwidth: 125000, spreading_factor: 7, coding_rate: '4/5' } },
      frequency: '868100000',
      timestamp: 2395022419,
      time: '2026-03-14T09:34:15.601Z',
    },
    received_at: '2026-03-14T09:34:15.703456789Z',
    consumed_airtime: '0.061696s',
  },
};

export const HTTP_UPLINK_EXAMPLE = {
  devEui: '70B3D57ED005A1B2',
  payload: { encoding: 'hex', data: '01020304' },
  observedAt: '2026-03-14T09:34:15.703Z',
  connectionData: { gateway: 'roof-north', rssi: -97 },
  messageId: 'meter-17-1287',
};

const TOKEN_ACCESS =
  '**Access**: an ingestion token (`Authorization: Bearer uit_...`, created under ingestion credentials), not a user token. Unknown or revoked: 401 `invalid_token` with `WWW-Authenticate`; the token is checked before the body is read.';
const DURABLE =
  'The exact request bytes are stored and the 202 is sent only after they are committed (concurrent requests share one commit). A repeat within 24 h (same dedup key, within the credential\'s tenant or the platform) is answered with the original `rawIngestionMessageId` and `duplicate: true`. Bodies ≤ 256 KiB, no Content-Encoding. Stored uplinks stay `pending` until the processing pipeline routes them; nothing about devices is looked up here, so every authenticated, parseable uplink gets the same answer. A body that cannot be mapped is stored as `rejected`/`malformed_payload` and answered 400.';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const INGEST_DOCS = defineDocs({
  ingestion_chirpStack: {
    summary: 'Receive a ChirpStack v4 event',
    description: lines(
      TOKEN_ACCESS,
      'Point ChirpStack\'s HTTP integration (payload encoding **JSON**) at `/v1/ingestion/chirpstack`; ChirpStack adds `?event=<type>`. `up` → 202; `join`, `status`, `ack`, `txack`, `log`, `location`, `integration` → 204, not stored; a missing or other `event` → 400. A Protobuf body (`application/octet-stream`, or not JSON) → 400 asking to switch the integration to JSON.',
      'Mapping: `deviceInfo.devEui` (upper-cased); `time` → `observedAt` (else the receipt time); `data` → `rawPayload` (base64); `connectionData` {`networkServer`: "chirpstack", `deduplicationId`, `devAddr`, `fPort`, `fCnt`, `dr`, `adr`, `confirmed`, `rxInfo`, `txInfo`, `object` when present}; omitted zero values read as 0/false. Dedup key: `deduplicationId`.',
      DURABLE,
    ),
  },
  ingestion_tts: {
    summary: 'Receive a The Things Stack v3 webhook',
    description: lines(
      TOKEN_ACCESS,
      'Point a TTS webhook (format JSON) at `/v1/ingestion/tts` with the header `Authorization: Bearer uit_...`. `uplink_message` → 202; every other message type → 204, not stored.',
      'Mapping: `end_device_ids.dev_eui`; `observedAt` = `uplink_message.received_at` (the network server\'s receive time), else the top-level `received_at` (the application server\'s), else the receipt time; `0001-01-01T00:00:00Z` counts as absent. `uplink_message.frm_payload` → `rawPayload` (base64; absent = empty); `connectionData` {`networkServer`: "tts", `applicationId`, `deviceId`, `devAddr`, `fPort` (null when absent), `fCnt` (0 when absent), `rxMetadata`, `settings`, `decodedPayload` when present}, values as sent (frequencies and durations stay strings). Dedup key: the `as:up:` correlation id, else devEui + `f_cnt` + receive time.',
      DURABLE,
    ),
  },
  ingestion_http: {
    summary: 'Receive an uplink in Uplink\'s own format',
    description: lines(
      TOKEN_ACCESS,
      'Body: `devEui` (16 hex digits, any case), `payload` {`encoding` ∈ base64, hex, utf8, json; `data` ≤ 65536 characters that decodes}, `observedAt` (RFC 3339, optional), `connectionData` (object ≤ 16 KiB, optional), `messageId` (1..128, optional, the dedup key). Unknown properties are 400 `unknown_property`.',
      DURABLE,
    ),
  },
});
