import { defineDocs, EXISTENCE_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_RUNS_DOCS = defineDocs({
  flowFixtures_run: {
    summary: 'Run fixtures against a flow version',
    description: lines(
      'Runs every fixture of the flow (or the `fixtureIds` named, 1..100, unique, in that order) against `flowVersionId` (a version of this flow in any status) and evaluates their assertions: `path` (dots and `[n]`) into {`status`, `current`, `timeseries`, `actions`, `error`}, deep JSON equality; a fixture without assertions passes unless its execution failed. Parameters are the version’s defaults overlaid by the fixture’s `input.parameters` (stored overrides are ignored, so a run is deterministic). Returns the FixtureRun (`total`, `passed`, `failed`, per fixture `passed`, `status`, `assertions`, `error`); nothing is stored or sent, and nothing is audited.',
      EXISTENCE_404 + ' **400** `reference_not_found` at `body.flowVersionId` or `body.fixtureIds[n]` (not of this flow). **422** FLOW_FAILURE `gate` `compile` with `details.issues`: a draft with an `error` issue (a released or deprecated version runs as it would live). **503** DEPENDENCY_FAILURE `sandbox`.',
    ),
  },
  flows_preview: {
    summary: 'Preview a flow version on one input',
    description: lines(
      'Runs `flowVersionId` (a version of this flow in any status) on `input`, the complete input envelope with `mode` `preview` (the fixture input rules; `tenantId` and `deviceTypeId` must be the flow’s, else `mismatch`; `deviceId` need not exist). Parameters are the version’s defaults overlaid by `input.parameters`; stored overrides are ignored. Returns the ExecutionResult with its per-node trace; the same version and input always give the same result apart from durations. Nothing is stored or sent, and nothing is audited.',
      EXISTENCE_404 + ' **400** input rules under `body.input`; `reference_not_found` at `body.flowVersionId`. **422** FLOW_FAILURE `gate` `compile` with `details.issues`: a draft with an `error` issue. **503** DEPENDENCY_FAILURE `sandbox`.',
    ),
  },
});
