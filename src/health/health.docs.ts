import { defineDocs, lines } from '../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const HEALTH_DOCS = defineDocs({
  health_liveness: {
    summary: 'Liveness probe',
    description: lines(
      'Answers 200 while the process runs and serves HTTP; it checks no dependency, so a database outage never restarts the service.',
      'Public, outside `/v1`, not rate-limited. Use it as the container liveness probe.',
    ),
  },
  health_readiness: {
    summary: 'Readiness probe',
    description: lines(
      'Answers 200 when the service can serve traffic (the database answers, every migration is applied), else 503 with `checks` naming what failed.',
      'With MQTT_ENABLED, `checks.mqtt` says whether the broker connection is up; it is reported only and never turns the answer 503.',
      'Public, outside `/v1`. Use it as the readiness probe so a replica without its database stops receiving requests.',
    ),
  },
});
