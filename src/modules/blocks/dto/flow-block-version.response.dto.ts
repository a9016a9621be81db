import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SCRIPT_CONTRACTS, ScriptContract } from '../../sandbox';

export const BLOCK_VERSION_STATUSES = ['draft', 'released', 'deprecated'] as const;
export type BlockVersionStatus = (typeof BLOCK_VERSION_STATUSES)[number];

/** What the release gate stored about the compiled script. */
export class BlockArtifact {
  @ApiProperty({ enum: ['isolated-vm'] })
  engine!: 'isolated-vm';

  @ApiProperty({ description: 'Version of the engine that compiled and ran the gate.' })
  engineVersion!: string;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'Lowercase hex SHA-256 of the source.' })
  sha256!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Size of the source in UTF-8 bytes.' })
  sizeBytes!: number;

  @ApiProperty({ format: 'date-time' })
  compiledAt!: string;
}

export class BlockGateIssue {
  @ApiProperty({ enum: ['error', 'warning'] })
  severity!: string;

  @ApiProperty({
    enum: ['syntax_error', 'missing_transform', 'runtime_error', 'timeout', 'memory_limit', 'invalid_output', 'output_too_large'],
  })
  code!: string;

  @ApiProperty({ example: 'sourceCode' })
  path!: string;

  @ApiProperty()
  message!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: '1-based line in `sourceCode`, where known.' })
  line?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: '1-based column, where known.' })
  column?: number;
}

/** The last gate run stored with a released version. */
export class BlockGateReport {
  @ApiProperty({ enum: ['passed', 'failed'] })
  compile!: 'passed' | 'failed';

  @ApiProperty({ enum: ['passed', 'failed', 'not_run'] })
  sandbox!: 'passed' | 'failed' | 'not_run';

  @ApiProperty({ type: 'integer', minimum: 0 })
  durationMs!: number;

  @ApiProperty({ type: [BlockGateIssue] })
  issues!: BlockGateIssue[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The sample run: `result` (what the script returned; null = filtered), `logs`, `logsTruncated`.',
  })
  sample?: Record<string, unknown> | null;
}

/** What a dry run can fail with: the sandbox gate's issue codes. */
export const BLOCK_RUN_ERROR_CODES = ['runtime_error', 'timeout', 'memory_limit', 'invalid_output', 'output_too_large'] as const;

/** Why a dry run failed: the sandbox gate's issue, with the script position where the sandbox reports one. */
export class BlockRunError {
  @ApiProperty({
    enum: BLOCK_RUN_ERROR_CODES,
    description: '`runtime_error`: the script threw, a codec returned `errors`, or a codec got no payload bytes; the others are the sandbox limits and the result shape.',
  })
  code!: string;

  @ApiProperty()
  message!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: '1-based line in `sourceCode`, where known.' })
  line?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: '1-based column, where known.' })
  column?: number;
}

/** A dry run of a version on one message: what the script returned or why it failed, and what it logged. */
export class FlowBlockRunResult {
  @ApiProperty({ description: 'Whether the script ran to a valid result (`result`) or failed (`error`).' })
  ok!: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'With `ok` true: what the script returned, `{payload?, values?}` (a codec\'s `data` as `payload`); null when it filtered the message.',
  })
  result?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: BlockRunError, description: 'With `ok` false.' })
  error?: BlockRunError;

  @ApiProperty({ type: [String], description: '`console.log` lines and a codec\'s `warnings`, in order.' })
  logs!: string[];

  @ApiProperty({ description: 'Whether lines beyond the log limit were dropped.' })
  logsTruncated!: boolean;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Wall time of the run, compile included.' })
  durationMs!: number;
}

/** A block version as listed: everything but the source. */
export class FlowBlockVersionSummary {
  @ApiProperty({ format: 'uuid' })
  flowBlockVersionId!: string;

  @ApiProperty({ format: 'uuid' })
  flowBlockId!: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null for a version of a global block.' })
  tenantId!: string | null;

  @ApiProperty({ type: 'integer', minimum: 1 })
  versionNumber!: number;

  @ApiProperty({ enum: BLOCK_VERSION_STATUSES, description: '`draft` -> `released` -> `deprecated`; every version is immutable.' })
  status!: BlockVersionStatus;

  @ApiProperty({
    type: String,
    enum: SCRIPT_CONTRACTS,
    nullable: true,
    description: 'How the script is called: `transform(msg, ctx)`, a TTN / ChirpStack v4 `decodeUplink(input)` or a ChirpStack v3 `Decode(fPort, bytes, variables)`. null while the source does not compile.',
  })
  scriptContract!: ScriptContract | null;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$' })
  sourceSha256!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'JSON Schema (draft 2020-12) of the node configuration.' })
  configurationSchema!: Record<string, unknown> | null;

  @ApiProperty({ type: 'object', additionalProperties: true })
  sampleInput!: Record<string, unknown>;

  @ApiProperty({ maxLength: 2000 })
  notes!: string;

  @ApiProperty({ type: BlockArtifact, nullable: true, description: 'Set on release.' })
  artifact!: BlockArtifact | null;

  @ApiProperty({ type: BlockGateReport, nullable: true, description: 'The release gate run; set on release.' })
  gateReport!: BlockGateReport | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  releasedAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  deprecatedAt!: string | null;

  static summaryOf(row: Record<string, unknown>): FlowBlockVersionSummary {
    const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString());
    return {
      flowBlockVersionId: String(row.flow_block_version_id),
      flowBlockId: String(row.flow_block_id),
      tenantId: (row.tenant_id as string | null) ?? null,
      versionNumber: Number(row.version_number),
      status: row.status as BlockVersionStatus,
      scriptContract: (row.script_contract as ScriptContract | null) ?? null,
      sourceSha256: String(row.source_sha256),
      configurationSchema: (row.configuration_schema as Record<string, unknown> | null) ?? null,
      sampleInput: row.sample_input as Record<string, unknown>,
      notes: String(row.notes),
      artifact: (row.artifact as BlockArtifact | null) ?? null,
      gateReport: (row.gate_report as BlockGateReport | null) ?? null,
      createdAt: iso(row.created_at) as string,
      releasedAt: iso(row.released_at),
      deprecatedAt: iso(row.deprecated_at),
    };
  }
}

/** A block version with its source. */
export class FlowBlockVersionResponse extends FlowBlockVersionSummary {
  @ApiProperty({ minLength: 1, maxLength: 102400 })
  sourceCode!: string;

  static of(row: Record<string, unknown>): FlowBlockVersionResponse {
    const summary = FlowBlockVersionSummary.summaryOf(row);
    const { artifact, gateReport, createdAt, releasedAt, deprecatedAt, ...head } = summary;
    return { ...head, sourceCode: String(row.source_code), artifact, gateReport, createdAt, releasedAt, deprecatedAt };
  }
}
