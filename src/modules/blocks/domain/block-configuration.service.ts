import { Injectable } from '@nestjs/common';
import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { DataSource, EntityManager } from 'typeorm';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { builtInBlock } from './built-in-blocks';

/** A configuration schema is at most 32 KiB as UTF-8 JSON. */
export const MAX_CONFIGURATION_SCHEMA_BYTES = 32 * 1024;
/** Compiled validators kept in memory (least recently used first out). */
const CACHE_SIZE = 2000;

/** Which block a configuration is for: a built-in by key and version, or a custom block version by id. */
export type BlockReference = { builtIn: { key: string; version: number } } | { flowBlockVersionId: string };

export interface ConfigurationIssue {
  /** JSON Pointer into the configuration (`""` = the whole object). */
  path: string;
  message: string;
}

export type ConfigurationCheck = { valid: true } | { valid: false; unknownBlock: boolean; issues: ConfigurationIssue[] };

const SCHEMA_PATH = 'body.configurationSchema';
const REFERENCE_KEYWORDS = new Set(['$ref', '$dynamicRef', '$recursiveRef']);

/**
 * JSON Schema (draft 2020-12) checks of block configurations. A schema must be valid for the draft, at most
 * 32 KiB, and may reference only its own parts (`#...`): nothing is ever fetched. Versions are immutable, so a
 * compiled validator is cached per block version id.
 */
@Injectable()
export class BlockConfigurationService {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly dataSource: DataSource) {
    addFormats(this.ajv);
  }

  /**
   * 400 at `body.configurationSchema` unless `schema` is a usable draft 2020-12 schema: the validator's own
   * message for an invalid one, `format` for a remote reference, `max_length` above 32 KiB.
   */
  assertValidSchema(schema: Record<string, unknown>): void {
    const bytes = Buffer.byteLength(JSON.stringify(schema), 'utf8');
    if (bytes > MAX_CONFIGURATION_SCHEMA_BYTES) {
      throw ValidationFailedError.single(SCHEMA_PATH, 'max_length', `configurationSchema must be at most ${MAX_CONFIGURATION_SCHEMA_BYTES} bytes as JSON; it is ${bytes}.`);
    }
    const remote = remoteReference(schema);
    if (remote !== null) {
      throw ValidationFailedError.single(SCHEMA_PATH, 'format', `configurationSchema may reference only its own parts ("#..."); "${remote}" is refused.`);
    }
    this.compile(schema);
  }

  /**
   * Checks `configuration` against a block's schema. Unknown built-ins and missing versions report
   * `unknownBlock`; a custom version without a schema accepts any object.
   */
  async validateConfiguration(block: BlockReference, configuration: unknown, manager: EntityManager = this.dataSource.manager): Promise<ConfigurationCheck> {
    const validate = await this.validatorOf(block, manager);
    if (validate === undefined) return { valid: false, unknownBlock: true, issues: [{ path: '', message: 'No such block.' }] };
    if (validate === null) {
      const isObject = typeof configuration === 'object' && configuration !== null && !Array.isArray(configuration);
      return isObject ? { valid: true } : { valid: false, unknownBlock: false, issues: [{ path: '', message: 'must be object' }] };
    }
    if (validate(configuration)) return { valid: true };
    return { valid: false, unknownBlock: false, issues: (validate.errors ?? []).slice(0, 50).map(issueOf) };
  }

  /** undefined: no such block; null: no schema (any object). */
  private async validatorOf(block: BlockReference, manager: EntityManager): Promise<ValidateFunction | null | undefined> {
    const cacheKey = 'builtIn' in block ? `builtin:${block.builtIn.key}@${block.builtIn.version}` : block.flowBlockVersionId;
    const cached = this.cache.get(cacheKey);
    if (cached) {
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, cached);
      return cached;
    }
    let schema: Record<string, unknown> | null;
    if ('builtIn' in block) {
      const definition = builtInBlock(block.builtIn.key, block.builtIn.version);
      if (!definition) return undefined;
      schema = definition.configurationSchema as Record<string, unknown>;
    } else {
      const [row] = await manager.query<{ configuration_schema: Record<string, unknown> | null }[]>(
        `SELECT configuration_schema FROM flow_block_versions WHERE flow_block_version_id = $1`,
        [block.flowBlockVersionId],
      );
      if (!row) return undefined;
      schema = row.configuration_schema;
    }
    if (schema === null) return null;
    const validate = this.compile(schema);
    this.cache.set(cacheKey, validate);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    return validate;
  }

  private compile(schema: Record<string, unknown>): ValidateFunction {
    if (!this.ajv.validateSchema(schema)) {
      throw ValidationFailedError.single(SCHEMA_PATH, 'format', `configurationSchema is not a valid JSON Schema (draft 2020-12): ${this.ajv.errorsText(this.ajv.errors, { dataVar: 'schema' })}.`);
    }
    try {
      return this.ajv.compile(schema);
    } catch (error) {
      throw ValidationFailedError.single(SCHEMA_PATH, 'format', `configurationSchema is not a valid JSON Schema (draft 2020-12): ${(error as Error).message}.`);
    } finally {
      // The validator keeps what it compiled; the instance must not keep every schema (or its $id) forever.
      this.ajv.removeSchema(schema);
    }
  }
}

/** The first `$ref`-like value that does not point into the schema itself, or null. */
function remoteReference(node: unknown): string | null {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = remoteReference(item);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof node !== 'object' || node === null) return null;
  for (const [key, value] of Object.entries(node)) {
    if (REFERENCE_KEYWORDS.has(key) && typeof value === 'string' && !value.startsWith('#')) return value;
    if (key === '$id' && typeof value === 'string') return value;
    const found = remoteReference(value);
    if (found !== null) return found;
  }
  return null;
}

function issueOf(error: ErrorObject): ConfigurationIssue {
  return { path: error.instancePath, message: error.message ?? 'is invalid' };
}
