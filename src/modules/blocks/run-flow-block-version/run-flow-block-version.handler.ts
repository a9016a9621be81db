import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { RawMessageReader } from '../../ingestion';
import type { JsonObject, SampleInput } from '../../sandbox';
import { ScriptSandbox } from '../../sandbox';
import { gateFailure, issuesOf } from '../domain/gate-issues';
import { payloadOfRaw, sampleOfRawMessage } from '../domain/run-input';
import { RunFlowBlockVersionRequest } from '../dto/flow-block-version.request.dto';
import { BlockRunError, FlowBlockRunResult } from '../dto/flow-block-version.response.dto';
import { FlowBlockStore, ResolvedBlock } from '../persistence/flow-block.store';
import { RunFlowBlockVersionCommand } from './run-flow-block-version.command';

const rawMessageNotFound = () => new ResourceNotFoundError('raw_ingestion_message');

/**
 * A dry run of a version in any status: the release gate's sandbox run (compile, then the script in a throw-away
 * isolate within the limits, configuration defaults from the version's schema) on a given message or a stored raw
 * message of the block's tenant. Nothing is stored and nothing is audited, whatever the outcome; a source that
 * does not compile is 422 FLOW_FAILURE `gate` `compile`, as at release.
 */
@CommandHandler(RunFlowBlockVersionCommand)
export class RunFlowBlockVersionHandler implements ICommandHandler<RunFlowBlockVersionCommand, FlowBlockRunResult> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: FlowBlockStore,
    private readonly rawMessages: RawMessageReader,
    private readonly sandbox: ScriptSandbox,
  ) {}

  async execute({ caller, flowBlockId, flowBlockVersionId, input }: RunFlowBlockVersionCommand): Promise<FlowBlockRunResult> {
    checkRequest(input);
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    const version = await this.store.versions.findVersion(this.dataSource.manager, flowBlockId, flowBlockVersionId);
    const sample: SampleInput =
      input.rawIngestionMessageId !== undefined ? await this.rawSample(resolved, input.rawIngestionMessageId) : ({ ...input.input } as SampleInput);
    if (input.configuration !== undefined) sample.configuration = input.configuration as JsonObject;
    if (input.parameters !== undefined) sample.parameters = input.parameters as JsonObject;

    const started = Date.now();
    const report = await this.sandbox.gate(
      resolved.block.tenantId,
      String(version.row.source_code),
      sample,
      (version.row.configuration_schema as JsonObject | null) ?? undefined,
    );
    const durationMs = Date.now() - started;
    if (report.gate === 'compile') throw gateFailure('compile', issuesOf(report.issues));
    const logs = report.sample?.logs ?? [];
    const logsTruncated = report.sample?.logsTruncated ?? false;
    if (report.passed) return { ok: true, result: (report.sample?.result ?? null) as FlowBlockRunResult['result'], logs, logsTruncated, durationMs };
    return { ok: false, error: errorOf(report.issues[0]), logs, logsTruncated, durationMs };
  }

  /** The sample of a stored message: 404 unless it exists and belongs to the block's tenant (any, for a global block). */
  private async rawSample({ block }: ResolvedBlock, rawIngestionMessageId: string): Promise<SampleInput> {
    const message = await this.rawMessages.find(this.dataSource.manager, rawIngestionMessageId);
    if (!message) throw rawMessageNotFound();
    if (block.tenantId !== null && message.tenantId !== block.tenantId) throw rawMessageNotFound();
    const decoded = payloadOfRaw(message.rawPayload);
    if (typeof decoded === 'string') throw ValidationFailedError.single('body.rawIngestionMessageId', 'format', decoded);
    return sampleOfRawMessage(message, decoded.payload);
  }
}

/** Exactly one message source; `configuration` and `parameters` given once. Checked before any lookup. */
function checkRequest(input: RunFlowBlockVersionRequest): void {
  if (input.input === undefined && input.rawIngestionMessageId === undefined) {
    throw ValidationFailedError.single('body.input', 'required', 'Send exactly one of input and rawIngestionMessageId.');
  }
  if (input.input !== undefined && input.rawIngestionMessageId !== undefined) {
    throw ValidationFailedError.single('body.rawIngestionMessageId', 'mismatch', 'Send exactly one of input and rawIngestionMessageId, not both.');
  }
  for (const key of ['configuration', 'parameters'] as const) {
    if (input[key] !== undefined && input.input?.[key] !== undefined) {
      throw ValidationFailedError.single(`body.${key}`, 'mismatch', `Send ${key} once: here or in input.${key}, not both.`);
    }
  }
}

function errorOf(issue: ReturnType<typeof issuesOf>[number] | undefined): BlockRunError {
  if (!issue) return { code: 'runtime_error', message: 'The script failed.' };
  const { code, message, line, column } = issue;
  return { code, message, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) };
}
