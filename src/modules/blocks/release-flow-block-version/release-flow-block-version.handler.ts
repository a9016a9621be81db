import { readFileSync } from 'node:fs';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { StatusTransitions } from '../../../shared/state/status-transitions';
import { VERSION_MOVES } from '../../../shared/versioning/version-store';
import type { GateIssue, JsonObject, SampleInput } from '../../sandbox';
import { ScriptSandbox } from '../../sandbox';
import { BlockArtifact, BlockGateReport, FlowBlockVersionResponse } from '../dto/flow-block-version.response.dto';
import { FlowBlockStore, ResolvedBlock } from '../persistence/flow-block.store';
import { gateFailure, issuesOf } from '../domain/gate-issues';
import { ReleaseFlowBlockVersionCommand } from './release-flow-block-version.command';

const RELEASE_MOVES = new StatusTransitions('flow_block_version', VERSION_MOVES);

const ENGINE_VERSION = (JSON.parse(readFileSync(require.resolve('isolated-vm/package.json'), 'utf8')) as { version: string }).version;

/**
 * Release: the compile gate, then the sandbox gate on the version's sample (configuration defaults from its
 * schema), run before any transaction is opened so no database connection waits on the sandbox. On success the
 * artifact, contract and gate report are stored with the move to `released`, re-checked under the block's lock
 * (a parallel release gets 409 `invalid_state`). On failure nothing changes: 422 FLOW_FAILURE and a `failure`
 * audit event in its own transaction.
 */
@CommandHandler(ReleaseFlowBlockVersionCommand)
export class ReleaseFlowBlockVersionHandler implements ICommandHandler<ReleaseFlowBlockVersionCommand, FlowBlockVersionResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowBlockStore,
    private readonly sandbox: ScriptSandbox,
  ) {}

  async execute({ caller, flowBlockId, flowBlockVersionId }: ReleaseFlowBlockVersionCommand): Promise<FlowBlockVersionResponse> {
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    const version = await this.store.versions.findVersion(this.dataSource.manager, flowBlockId, flowBlockVersionId);
    // The move is checked again under the lock below; refusing it now spares a sandbox run.
    RELEASE_MOVES.move(version.status, 'release');
    const source = String(version.row.source_code);
    const sourceSha256 = String(version.row.source_sha256);
    const started = Date.now();
    const report = await this.sandbox.gate(
      resolved.block.tenantId,
      source,
      version.row.sample_input as SampleInput,
      (version.row.configuration_schema as JsonObject | null) ?? undefined,
    );
    const durationMs = Date.now() - started;
    const issues = issuesOf(report.issues);

    if (!report.passed || !report.artifact || !report.scriptContract) {
      const gate = report.gate ?? 'sandbox';
      await this.recordFailure(resolved, flowBlockVersionId, version.versionNumber, sourceSha256, gate, issues);
      throw gateFailure(gate, issues);
    }

    const artifact: BlockArtifact = {
      engine: 'isolated-vm',
      engineVersion: ENGINE_VERSION,
      sha256: report.artifact.sha256,
      sizeBytes: Buffer.byteLength(source, 'utf8'),
      compiledAt: new Date().toISOString(),
    };
    const gateReport: BlockGateReport = { compile: 'passed', sandbox: 'passed', durationMs, issues, sample: report.sample };
    const scriptContract = report.scriptContract;
    const released = await this.unitOfWork.run((tx) =>
      this.store.versions.transition(tx, flowBlockId, flowBlockVersionId, 'release', async () => {
        await tx.manager.query(
          `UPDATE flow_block_versions
              SET status = 'released', released_at = clock_timestamp(), artifact = $2, gate_report = $3, script_contract = $4
            WHERE flow_block_version_id = $1`,
          [flowBlockVersionId, JSON.stringify(artifact), JSON.stringify(gateReport), scriptContract],
        );
        return { sourceSha256, scriptContract };
      }),
    );
    return FlowBlockVersionResponse.of(released.row);
  }

  private async recordFailure(
    { block }: ResolvedBlock,
    flowBlockVersionId: string,
    versionNumber: number,
    sourceSha256: string,
    gate: 'compile' | 'sandbox',
    issues: GateIssue[],
  ): Promise<void> {
    await this.unitOfWork.run((tx) =>
      tx.audit({
        eventType: 'flow_block_version.release_failed',
        action: 'release',
        entityType: 'flow_block_version',
        entityId: flowBlockVersionId,
        tenantId: block.tenantId,
        outcome: 'failure',
        errorCode: 'FLOW_FAILURE',
        metadata: {
          flowBlockId: block.flowBlockId,
          versionNumber,
          sourceSha256,
          gate,
          issueCodes: [...new Set(issues.map((issue) => issue.code))],
          issueCount: issues.length,
        },
      }),
    );
  }
}
