import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * A starter template as shipped in `templates/<key>.json`: the template, the global custom blocks it uses (their
 * source in a file beside it), its graph and parameters, and example uplinks with the values they must produce.
 * A custom block node names its block by key (`{"type": "custom", "blockKey": "..."}`); the seeder replaces it
 * with the id of that block's released version.
 */
export interface TemplateFile {
  /** The file it was read from (for messages). */
  file: string;
  key: string;
  name: string;
  description?: string;
  blocks?: BlockFile[];
  graph: Record<string, unknown> & { nodes: Record<string, unknown>[] };
  parameters?: Record<string, unknown>[];
  /** Example uplinks: an input (`rawPayload`, `connectionData`, `parameters`) and the expected outcome. */
  fixtures?: TemplateFixture[];
}

export interface BlockFile {
  key: string;
  name: string;
  description?: string;
  /** Path of the script, relative to the template file. */
  sourceFile: string;
  /** Read from `sourceFile`. */
  sourceCode: string;
  configurationSchema?: Record<string, unknown>;
  sampleInput: { payload: unknown; values?: Record<string, unknown>; configuration?: Record<string, unknown>; parameters?: Record<string, unknown>; input?: Record<string, unknown> };
  notes?: string;
}

export interface TemplateFixture {
  name: string;
  input: { rawPayload: { encoding: string; data: string }; connectionData?: Record<string, unknown>; parameters?: Record<string, unknown> };
  /** Assertions as a flow fixture takes them: `path` into {status, current, timeseries, actions, error}. */
  assertions: { path: string; expected: unknown }[];
}

class TemplateFileError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function requireString(value: unknown, what: string, file: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new TemplateFileError(`${file}: ${what} must be a non-empty string`);
  return value;
}

/** Reads one template file (and the block sources it names); throws on a malformed file, naming it. */
export function readTemplateFile(path: string): TemplateFile {
  const file = resolve(path);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TemplateFileError(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isObject(data)) throw new TemplateFileError(`${file}: must hold an object`);
  requireString(data.key, 'key', file);
  requireString(data.name, 'name', file);
  if (!isObject(data.graph) || !Array.isArray(data.graph.nodes)) throw new TemplateFileError(`${file}: graph must be an object with nodes`);
  if (data.parameters !== undefined && !Array.isArray(data.parameters)) throw new TemplateFileError(`${file}: parameters must be an array`);
  const blocks = ((data.blocks as unknown[] | undefined) ?? []).map((block, index) => {
    if (!isObject(block)) throw new TemplateFileError(`${file}: blocks[${index}] must be an object`);
    const sourceFile = requireString(block.sourceFile, `blocks[${index}].sourceFile`, file);
    if (!isObject(block.sampleInput)) throw new TemplateFileError(`${file}: blocks[${index}].sampleInput must be an object`);
    return { ...block, sourceCode: readFileSync(join(dirname(file), sourceFile), 'utf8') } as unknown as BlockFile;
  });
  return { ...(data as unknown as TemplateFile), file, blocks };
}

/** Every `*.json` template file of `dir`, in file name order. */
export function readTemplateDirectory(dir: string): TemplateFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => readTemplateFile(join(dir, name)));
}
