import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import type { Caller } from '../../../shared/access/require-permission';
import { DependencyFailureError, DomainError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { StatusTransitions } from '../../../shared/state/status-transitions';
import { VERSION_MOVES } from '../../../shared/versioning/version-store';
import type { GateIssue, JsonObject, SampleInput, ScriptContract } from '../../sandbox/domain/sandbox-contract';
import { ScriptSandbox } from '../../sandbox/script-sandbox';
import { BlockConfigurationService } from '../domain/block-configuration.service';
import { BlockArtifact, BlockGateReport, FlowBlockVersionResponse } from '../dto/flow-block-version.response.dto';
import { FlowBlockStore, ResolvedBlock } from '../persistence/flow-block.store';
import type { CreateFlowBlockVersionRequest } from '../dto/flow-block-version.request.dto';

/** At most this many issues travel in a FLOW_FAILURE body and a gate report. */
const MAX_ISSUES = 100;

const RELEASE_MOVES = new StatusTransitions('flow_block_version', VERSION_MOVES);

const ENGINE_VERSION = (JSON.parse(readFileSync(require.resolve('isolated-vm/package.json'), 'utf8')) as { version: string }).version;

export const sha256Of = (source: string): string => createHash('sha256').update(source, 'utf8').digest('hex');

export class CreateFlowBlockVersionCommand extends Command<FlowBlockVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
    readonly input: CreateFlowBlockVersionRequest,
  ) {
    super();
  }
}

export interface CompileResponseBody {
  passed: boolean;
  gateReport: BlockGateReport;
}

export class CompileFlowBlockVersionCommand extends Command<CompileResponseBody> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
    readonly flowBlockVersionId: string,
  ) {
    super();
  }
}

export class ReleaseFlowBlockVersionCommand extends Command<FlowBlockVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
    readonly flowBlockVersionId: string,
  ) {
    super();
  }
}

export class DeprecateFlowBlockVersionCommand extends Command<FlowBlockVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
    readonly flowBlockVersionId: string,
  ) {
    super();
  }
}

function issuesOf(issues: readonly GateIssue[]): GateIssue[] {
  return issues.slice(0, MAX_ISSUES).map(({ severity, code, path, message, line, column }) => ({
    severity,
    code,
    path,
    message,
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
  }));
}

/** 422 FLOW_FAILURE naming the gate that failed and its issues (1-based line and column where known). */
function gateFailure(gate: 'compile' | 'sandbox', issues: GateIssue[]): DomainError {
  const first = issues[0];
  const where = first?.line !== undefined ? ` at line ${first.line}${first.column !== undefined ? `, column ${first.column}` : ''}` : '';
  return new DomainError('FLOW_FAILURE', `The ${gate} gate failed${first ? `: ${first.code}${where}` : ''}.`, { gate, issues });
}

/**
 * A new draft. Its configuration schema is checked first (a request rule: 400 before the block's 404); the
 * source is compiled once, outside the transaction, to record which script contract it uses.
 */
@CommandHandler(CreateFlowBlockVersionCommand)
export class CreateFlowBlockVersionHandler implements ICommandHandler<CreateFlowBlockVersionCommand, FlowBlockVersionResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowBlockStore,
    private readonly configurations: BlockConfigurationService,
    private readonly sandbox: ScriptSandbox,
  ) {}

  async execute({ caller, flowBlockId, input }: CreateFlowBlockVersionCommand): Promise<FlowBlockVersionResponse> {
    if (input.configurationSchema !== undefined) this.configurations.assertValidSchema(input.configurationSchema);
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    const scriptContract = await this.contractOf(input.sourceCode);
    const sourceSha256 = sha256Of(input.sourceCode);
    const version = await this.unitOfWork.run((tx) =>
      this.store.versions.create(
        tx,
        flowBlockId,
        {
          tenant_id: resolved.block.tenantId,
          script_contract: scriptContract,
          source_code: input.sourceCode,
          source_sha256: sourceSha256,
          configuration_schema: input.configurationSchema === undefined ? null : JSON.stringify(input.configurationSchema),
          sample_input: JSON.stringify(input.sampleInput),
          notes: input.notes ?? '',
        },
        { sourceSha256 },
      ),
    );
    return FlowBlockVersionResponse.of(version.row);
  }

  /** The contract the source declares; null while it does not compile, or while the sandbox is unavailable. */
  private async contractOf(source: string): Promise<ScriptContract | null> {
    try {
      const compiled = await this.sandbox.compile(source);
      return compiled.ok ? compiled.scriptContract : null;
    } catch (error) {
      if (error instanceof DependencyFailureError) return null;
      throw error;
    }
  }
}

/** The compile gate alone: nothing is stored, whatever the outcome. */
@CommandHandler(CompileFlowBlockVersionCommand)
export class CompileFlowBlockVersionHandler implements ICommandHandler<CompileFlowBlockVersionCommand, CompileResponseBody> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: FlowBlockStore,
    private readonly sandbox: ScriptSandbox,
  ) {}

  async execute({ caller, flowBlockId, flowBlockVersionId }: CompileFlowBlockVersionCommand): Promise<CompileResponseBody> {
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    const version = await this.store.versions.findVersion(this.dataSource.manager, flowBlockId, flowBlockVersionId);
    const started = Date.now();
    const compiled = await this.sandbox.compile(String(version.row.source_code));
    const issues = compiled.ok ? [] : issuesOf(compiled.issues);
    return {
      passed: compiled.ok,
      gateReport: { compile: compiled.ok ? 'passed' : 'failed', sandbox: 'not_run', durationMs: Date.now() - started, issues },
    };
  }
}

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

/** `released` -> `deprecated`: no new flow release may use it; released flows keep running it. */
@CommandHandler(DeprecateFlowBlockVersionCommand)
export class DeprecateFlowBlockVersionHandler implements ICommandHandler<DeprecateFlowBlockVersionCommand, FlowBlockVersionResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowBlockStore,
  ) {}

  async execute({ caller, flowBlockId, flowBlockVersionId }: DeprecateFlowBlockVersionCommand): Promise<FlowBlockVersionResponse> {
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    const deprecated = await this.unitOfWork.run((tx) =>
      this.store.versions.transition(tx, flowBlockId, flowBlockVersionId, 'deprecate', async (version) => {
        await tx.manager.query(`UPDATE flow_block_versions SET status = 'deprecated', deprecated_at = clock_timestamp() WHERE flow_block_version_id = $1`, [
          flowBlockVersionId,
        ]);
        return { sourceSha256: String(version.row.source_sha256) };
      }),
    );
    return FlowBlockVersionResponse.of(deprecated.row);
  }
}
