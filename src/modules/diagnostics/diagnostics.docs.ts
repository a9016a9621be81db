import { defineDocs, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const DIAGNOSTICS_DOCS = defineDocs({
  diagnostics_version: {
    summary: 'Get the deployed version',
    description: lines(
      '**Access**: any signed-in user.',
      'The service version, API version and, when known, the git commit and build time.',
    ),
  },
  diagnostics_readiness: {
    summary: 'Check every dependency (platform admins)',
    description: lines(
      '**Access**: platform admins only; anyone else gets 403 `platform_admin_required` before anything is checked.',
      'Always 200. `status` is `ready` when every critical check is up (the same rule as the public `/readyz` probe): `database` (PostgreSQL answers within one second) and `migrations` (every migration of this build is applied; `pending` counts the missing ones). `sandbox` (the script sandbox host compiles a trivial script) and, with MQTT_ENABLED, `mqtt` (connected to the broker) are reported but never make the service unready. Each check carries `latencyMs` and, when down, a fixed `message` (never driver text).',
    ),
  },
  diagnostics_echo: {
    summary: 'Exercise the request path',
    description: lines(
      '**Access**: any signed-in user.',
      'Echoes `message` (1..1000 characters) with the correlation id, the time received, the caller’s user id and one database round trip in milliseconds: a quick end-to-end check of authentication, validation, the database and the error envelope.',
    ),
  },
});
