// The framework-free peer of `npm run bench:devices`: GET /v1/devices/{id}/current-values for a platform admin,
// written by hand with Express, jsonwebtoken and pg. It does the same work as Uplink for that caller: verifies the
// HS256 access token (issuer, audience, expiry), checks in the database that the token's session is active and its
// user an active platform admin, then reads the device with its active fields and their current values in one
// query, and answers the same JSON (no-store, correlation id). No cache, no logging, no metrics.
const { createSecretKey, randomUUID } = require('node:crypto');
const express = require('express');
const jwt = require('jsonwebtoken');
const { Pool } = require('pg');

const key = createSecretKey(Buffer.from(process.env.JWT_SECRET, 'utf8'));
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SESSION_SQL = `
  SELECT u.is_platform_admin FROM sessions s JOIN users u ON u.user_id = s.user_id
   WHERE s.session_id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL
     AND s.refresh_idle_expires_at > clock_timestamp() AND u.status = 'active'`;

const DEVICE_SQL = `
  SELECT d.tenant_id, d.device_type_id, coalesce((
    SELECT json_agg(json_build_object(
             'definition', json_build_object(
               'deviceFieldDefinitionId', f.device_field_definition_id, 'tenantId', f.tenant_id, 'deviceTypeId', f.device_type_id,
               'key', f.key, 'name', f.name, 'description', f.description, 'schemaRef', f.schema_ref, 'unit', f.unit,
               'storageTargets', f.storage_targets, 'measurementType', f.measurement_type, 'status', f.status,
               'lockVersion', f.lock_version, 'createdAt', f.created_at, 'updatedAt', f.updated_at, 'deprecatedAt', f.deprecated_at),
             'currentValue', cv.value) ORDER BY f.created_at, f.device_field_definition_id)
      FROM device_field_definitions f
      LEFT JOIN device_current_values cv ON cv.device_id = d.device_id AND cv.field_no = f.field_no
     WHERE f.device_type_id = d.device_type_id AND f.status = 'active'), '[]'::json) AS fields
    FROM devices d WHERE d.device_id = $1`;

const fail = (res, status, code) => res.status(status).json({ error: { code } });

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/v1/devices/:deviceId/current-values', async (req, res) => {
  res.set('X-Correlation-Id', randomUUID());
  res.set('Cache-Control', 'no-store');
  const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  if (!match) return fail(res, 401, 'missing_token');
  let claims;
  try {
    claims = jwt.verify(match[1], key, { algorithms: ['HS256'], issuer: 'uplink', audience: 'uplink-api' });
  } catch {
    return fail(res, 401, 'invalid_token');
  }
  if (!UUID.test(req.params.deviceId)) return fail(res, 400, 'validation_failed');
  try {
    const session = await pool.query({ name: 'peer_session', text: SESSION_SQL, values: [claims.sid, claims.sub] });
    if (session.rows.length === 0) return fail(res, 401, 'revoked_session');
    if (!session.rows[0].is_platform_admin) return fail(res, 404, 'not_found');
    const device = await pool.query({ name: 'peer_device', text: DEVICE_SQL, values: [req.params.deviceId] });
    if (device.rows.length === 0) return fail(res, 404, 'not_found');
    const [row] = device.rows;
    res.json({
      tenantId: row.tenant_id,
      deviceId: req.params.deviceId,
      deviceTypeId: row.device_type_id,
      fields: row.fields.map((field) => ({ definition: field.definition, currentValue: field.currentValue ?? null })),
    });
  } catch {
    fail(res, 500, 'internal_error');
  }
});
app.get('/readyz', (_req, res) => res.send('ok'));

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
