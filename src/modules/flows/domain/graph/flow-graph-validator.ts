import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { builtInBlock, BUILT_IN_BLOCKS } from '../../../blocks';
import type { CustomBlockVersionInfo, EmailTemplateInfo } from './block-version-lookup';
import { FlowGraph, FlowGraphNode, OUTPUT_KINDS, outputTargetOf, parameterRefOf, ParameterDeclaration, ParameterType, portsOf, valueFitsType } from './flow-graph';

export type IssueSeverity = 'error' | 'warning';
export type IssueCode =
  | 'cycle_detected'
  | 'multiple_inputs'
  | 'invalid_port'
  | 'unknown_block'
  | 'block_version_not_released'
  | 'block_version_deprecated'
  | 'invalid_configuration'
  | 'unknown_field'
  | 'field_target_mismatch'
  | 'schema_ref_mismatch'
  | 'undeclared_parameter'
  | 'parameter_type_mismatch'
  | 'unknown_email_template'
  | 'email_template_inactive'
  | 'unreachable_output'
  | 'dead_end_node';

export interface ValidationIssue {
  severity: IssueSeverity;
  code: IssueCode;
  /** Into the version: `graph.nodes[3].configuration.reads[0].offset`, `graph.edges[1].fromPort`, `parameters[0]`. */
  path: string;
  message: string;
}

/** A field of the flow's device type, as the output rules compare it. */
export interface FieldInfo {
  key: string;
  schemaRef: string;
  storageTargets: readonly string[];
  status: 'active' | 'deprecated';
  deprecatedAt: Date | null;
}

export interface ValidationContext {
  /** The flow's tenant; null for a flow template, which may use only built-in blocks and global custom blocks. */
  tenantId: string | null;
  /**
   * The device type's fields; null for a flow template (no device type): its outputs are then checked only
   * against each other (one schemaRef per field key), and become the template's required fields.
   */
  fields: readonly FieldInfo[] | null;
  customBlocks: ReadonlyMap<string, CustomBlockVersionInfo>;
  emailTemplates: ReadonlyMap<string, EmailTemplateInfo>;
  /** Set for a released or deprecated version: a field deprecated after this moment is only a warning. */
  releasedAt: Date | null;
}

/** Configuration of both output nodes: the fields they write. */
const OUTPUT_CONFIGURATION_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['fields'],
  properties: {
    fields: {
      type: 'array',
      maxItems: 200,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['fieldKey', 'schemaRef'],
        properties: {
          fieldKey: { type: 'string', pattern: '^[a-z][a-z0-9._-]{0,119}$' },
          schemaRef: { type: 'string', minLength: 1, maxLength: 64 },
        },
      },
    },
  },
};

const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
addFormats(ajv);
const builtInValidators = new Map<string, ValidateFunction>(
  BUILT_IN_BLOCKS.map((block) => [`${block.key}@${block.version}`, ajv.compile(block.configurationSchema)]),
);
const outputValidator = ajv.compile(OUTPUT_CONFIGURATION_SCHEMA);
/** Custom versions are immutable, so a compiled schema stays right for the version id. */
const customValidators = new Map<string, ValidateFunction | null>();

function customValidator(info: CustomBlockVersionInfo): ValidateFunction | null {
  if (!customValidators.has(info.flowBlockVersionId)) {
    let compiled: ValidateFunction | null;
    try {
      compiled = ajv.compile(info.configurationSchema);
    } catch {
      compiled = null;
    }
    customValidators.set(info.flowBlockVersionId, compiled);
  }
  return customValidators.get(info.flowBlockVersionId) ?? null;
}

/** `/reads/0/offset` -> `.reads[0].offset` */
function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`))
    .join('');
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The key of an exact `{"$param": "<key>"}` (see parameterRefOf), else null. */
function parameterReference(value: unknown): string | null {
  const ref = parameterRefOf(value);
  return ref?.exact ? (ref.key as string) : null;
}

const SAMPLE: Record<ParameterType, unknown> = { number: 0, string: '', boolean: false, json: null };

interface ParamUse {
  pointer: string;
  key: string;
  declaration: ParameterDeclaration | undefined;
}

/** The configuration with every declared `$param` replaced by a value of its type (its default when it has one). */
function substituteParameters(value: unknown, declarations: Map<string, ParameterDeclaration>, pointer: string, uses: ParamUse[]): unknown {
  const key = parameterReference(value);
  if (key !== null) {
    const declaration = declarations.get(key);
    uses.push({ pointer, key, declaration });
    if (!declaration) return null;
    return declaration.defaultValue !== null && declaration.defaultValue !== undefined ? declaration.defaultValue : SAMPLE[declaration.type];
  }
  if (Array.isArray(value)) return value.map((item, index) => substituteParameters(item, declarations, `${pointer}/${index}`, uses));
  if (isObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, substituteParameters(item, declarations, `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, uses)]),
    );
  }
  return value;
}

const within = (pointer: string, base: string) => pointer === base || pointer.startsWith(`${base}/`);

/**
 * Checks a configuration against its schema with `$param` references resolved: an undeclared key is
 * `undeclared_parameter`; a declared key where the schema wants another JSON type is `parameter_type_mismatch`;
 * other schema errors at a parameter's place are left to run time unless the value came from its default.
 */
function configurationIssues(
  validate: ValidateFunction,
  configuration: Record<string, unknown>,
  declarations: Map<string, ParameterDeclaration>,
  path: string,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const uses: ParamUse[] = [];
  const resolved = substituteParameters(configuration, declarations, '', uses);
  for (const use of uses) {
    if (!use.declaration) {
      issues.push({ severity: 'error', code: 'undeclared_parameter', path: `${path}${pointerToPath(use.pointer)}`, message: `Parameter "${use.key}" is not declared by this version.` });
    }
  }
  if (validate(resolved)) return issues;
  const reported = new Set<string>();
  for (const error of (validate.errors ?? []) as ErrorObject[]) {
    const use = uses.find((candidate) => within(error.instancePath, candidate.pointer));
    if (use) {
      if (!use.declaration) continue;
      if (error.keyword === 'type' && use.declaration.type !== 'json') {
        const key = `${use.pointer}:type`;
        if (reported.has(key)) continue;
        reported.add(key);
        issues.push({
          severity: 'error',
          code: 'parameter_type_mismatch',
          path: `${path}${pointerToPath(use.pointer)}`,
          message: `Parameter "${use.key}" is a ${use.declaration.type}; this place ${error.message ?? 'needs another type'}.`,
        });
        continue;
      }
      const fromDefault = use.declaration.defaultValue !== null && use.declaration.defaultValue !== undefined;
      if (!fromDefault || use.declaration.type === 'json') continue;
    }
    if (['if', 'allOf', 'anyOf', 'oneOf'].includes(error.keyword)) continue; // the branch's own error is reported
    const at = `${path}${pointerToPath(error.instancePath)}`;
    const detail = error.keyword === 'additionalProperties' ? `${String(error.params.additionalProperty)} is not allowed` : (error.message ?? 'is invalid');
    const key = `${at}:${detail}`;
    if (reported.has(key)) continue;
    reported.add(key);
    issues.push({ severity: 'error', code: 'invalid_configuration', path: at, message: `${at.replace(/^graph\./, '')} ${detail}.` });
  }
  return issues;
}

/** portsOf, with a custom block version the catalog does not hold unknown too. */
function knownPortsOf(node: FlowGraphNode, context: ValidationContext): readonly string[] | null {
  if (node.block?.type === 'custom' && !context.customBlocks.has(node.block.flowBlockVersionId.toLowerCase())) return null;
  return portsOf(node);
}

/**
 * Every compile rule over a saved version (the save rules already hold): graph structure, blocks and their
 * configurations, `$param` references, the output fields against the device type's fields and e-mail
 * templates. Errors block release, preview and fixture runs; warnings do not.
 */
export function validationIssues(graph: FlowGraph, parameters: readonly ParameterDeclaration[], context: ValidationContext): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const declarations = new Map(parameters.map((declaration) => [declaration.key, declaration]));
  const declaredRefs = new Map<string, string>();
  const index = new Map(graph.nodes.map((node, position) => [node.nodeId, position]));
  const incoming = new Map<string, number>();
  const outgoing = new Map<string, number>();
  graph.edges.forEach((edge) => {
    incoming.set(edge.toNodeId, (incoming.get(edge.toNodeId) ?? 0) + 1);
    outgoing.set(edge.fromNodeId, (outgoing.get(edge.fromNodeId) ?? 0) + 1);
  });

  // Structure: cycles (Kahn's algorithm; whatever keeps an in-degree is on or behind a cycle).
  const degree = new Map(graph.nodes.map((node) => [node.nodeId, 0]));
  graph.edges.forEach((edge) => degree.set(edge.toNodeId, (degree.get(edge.toNodeId) ?? 0) + 1));
  const queue = graph.nodes.filter((node) => degree.get(node.nodeId) === 0).map((node) => node.nodeId);
  while (queue.length > 0) {
    const nodeId = queue.shift()!;
    for (const edge of graph.edges) {
      if (edge.fromNodeId !== nodeId) continue;
      const left = (degree.get(edge.toNodeId) ?? 0) - 1;
      degree.set(edge.toNodeId, left);
      if (left === 0) queue.push(edge.toNodeId);
    }
  }
  const onCycle = graph.nodes.filter((node) => (degree.get(node.nodeId) ?? 0) > 0);
  if (onCycle.length > 0) {
    issues.push({
      severity: 'error',
      code: 'cycle_detected',
      path: `graph.nodes[${index.get(onCycle[0].nodeId)}]`,
      message: `The graph has a cycle through ${onCycle.map((node) => `"${node.nodeId}"`).join(', ')}.`,
    });
  }

  graph.nodes.forEach((node, position) => {
    const path = `graph.nodes[${position}]`;
    if (node.kind === 'block' && (incoming.get(node.nodeId) ?? 0) > 1) {
      issues.push({ severity: 'error', code: 'multiple_inputs', path, message: `Block node "${node.nodeId}" has ${incoming.get(node.nodeId)} incoming edges; a block takes one.` });
    }
    if (OUTPUT_KINDS.includes(node.kind)) {
      if ((incoming.get(node.nodeId) ?? 0) === 0) {
        issues.push({ severity: 'warning', code: 'unreachable_output', path, message: `Output "${node.nodeId}" has no incoming edge and never writes.` });
      }
      issues.push(...outputIssues(node, path, context, declaredRefs));
      return;
    }
    issues.push(...blockIssues(node, path, declarations, context));
    const ports = knownPortsOf(node, context);
    if (ports !== null && ports.length > 0 && (outgoing.get(node.nodeId) ?? 0) === 0) {
      issues.push({ severity: 'warning', code: 'dead_end_node', path, message: `What "${node.nodeId}" emits goes nowhere.` });
    }
  });

  graph.edges.forEach((edge, position) => {
    const from = graph.nodes[index.get(edge.fromNodeId)!];
    const ports = knownPortsOf(from, context);
    if (ports === null) return;
    const port = edge.fromPort ?? 'out';
    if (ports.length === 0) {
      issues.push({ severity: 'error', code: 'invalid_port', path: `graph.edges[${position}]`, message: `"${from.nodeId}" ends a path; no edge may leave it.` });
    } else if (!ports.includes(port)) {
      issues.push({
        severity: 'error',
        code: 'invalid_port',
        path: `graph.edges[${position}].fromPort`,
        message: `"${from.nodeId}" has no port "${port}" (ports: ${ports.join(', ')}).`,
      });
    }
  });

  parameters.forEach((declaration, position) => {
    if (declaration.defaultValue !== null && declaration.defaultValue !== undefined && !valueFitsType(declaration.type, declaration.defaultValue)) {
      issues.push({ severity: 'error', code: 'parameter_type_mismatch', path: `parameters[${position}].defaultValue`, message: `The default of "${declaration.key}" is not a ${declaration.type}.` });
    }
  });
  return issues;
}

function blockIssues(node: FlowGraphNode, path: string, declarations: Map<string, ParameterDeclaration>, context: ValidationContext): ValidationIssue[] {
  const block = node.block;
  if (!block) return [];
  if (block.type === 'builtin') {
    const definition = builtInBlock(block.key, block.version);
    if (!definition) {
      return [{ severity: 'error', code: 'unknown_block', path: `${path}.block`, message: `There is no built-in block "${block.key}" version ${block.version}.` }];
    }
    const issues = configurationIssues(builtInValidators.get(`${block.key}@${block.version}`)!, node.configuration, declarations, `${path}.configuration`);
    if (definition.key === 'email-action') issues.push(...emailIssues(node, path, context));
    return issues;
  }
  const info = context.customBlocks.get(block.flowBlockVersionId.toLowerCase());
  if (!info || (info.tenantId !== null && info.tenantId !== context.tenantId)) {
    const scope = context.tenantId === null ? 'among the global blocks (a template may use only those)' : 'for this tenant';
    return [{ severity: 'error', code: 'unknown_block', path: `${path}.block.flowBlockVersionId`, message: `There is no custom block version ${block.flowBlockVersionId} ${scope}.` }];
  }
  const issues: ValidationIssue[] = [];
  if (info.status === 'draft') {
    issues.push({ severity: 'error', code: 'block_version_not_released', path: `${path}.block.flowBlockVersionId`, message: 'The custom block version is a draft; release it first.' });
  } else if (info.status === 'deprecated') {
    issues.push({ severity: 'error', code: 'block_version_deprecated', path: `${path}.block.flowBlockVersionId`, message: 'The custom block version is deprecated.' });
  }
  const validate = customValidator(info);
  if (validate) issues.push(...configurationIssues(validate, node.configuration, declarations, `${path}.configuration`));
  return issues;
}

function emailIssues(node: FlowGraphNode, path: string, context: ValidationContext): ValidationIssue[] {
  const id = node.configuration.emailTemplateId;
  if (typeof id !== 'string') return [];
  if (context.tenantId === null) {
    return [
      {
        severity: 'error',
        code: 'unknown_email_template',
        path: `${path}.configuration.emailTemplateId`,
        message: 'A flow template names no tenant\'s e-mail template: make emailTemplateId a {"$param": ...} parameter.',
      },
    ];
  }
  const template = context.emailTemplates.get(id);
  if (!template || template.tenantId !== context.tenantId) {
    return [{ severity: 'error', code: 'unknown_email_template', path: `${path}.configuration.emailTemplateId`, message: 'No e-mail template with this id in this tenant.' }];
  }
  if (!template.hasActiveVersion) {
    return [{ severity: 'warning', code: 'email_template_inactive', path: `${path}.configuration.emailTemplateId`, message: 'The e-mail template has no active version; nothing would be sent.' }];
  }
  return [];
}

function outputIssues(node: FlowGraphNode, path: string, context: ValidationContext, declaredRefs: Map<string, string>): ValidationIssue[] {
  if (!outputValidator(node.configuration)) {
    return ((outputValidator.errors ?? []) as ErrorObject[]).map((error) => {
      const at = `${path}.configuration${pointerToPath(error.instancePath)}`;
      const detail = error.keyword === 'additionalProperties' ? `${String(error.params.additionalProperty)} is not allowed` : (error.message ?? 'is invalid');
      return { severity: 'error' as const, code: 'invalid_configuration' as const, path: at, message: `${at.replace(/^graph\./, '')} ${detail}.` };
    });
  }
  const target = outputTargetOf(node.kind)!;
  const issues: ValidationIssue[] = [];
  const fields = context.fields;
  (node.configuration.fields as { fieldKey: string; schemaRef: string }[]).forEach((entry, position) => {
    const at = `${path}.configuration.fields[${position}]`;
    if (fields === null) {
      const declared = declaredRefs.get(entry.fieldKey);
      if (declared !== undefined && declared !== entry.schemaRef) {
        issues.push({ severity: 'error', code: 'schema_ref_mismatch', path: `${at}.schemaRef`, message: `Field "${entry.fieldKey}" is written with schemaRef ${declared} elsewhere.` });
      }
      declaredRefs.set(entry.fieldKey, declared ?? entry.schemaRef);
      return;
    }
    const field = fields.find((candidate) => candidate.key === entry.fieldKey);
    if (!field || field.status !== 'active') {
      const deprecatedAfterRelease =
        field?.status === 'deprecated' && context.releasedAt !== null && field.deprecatedAt !== null && field.deprecatedAt > context.releasedAt;
      issues.push({
        severity: deprecatedAfterRelease ? 'warning' : 'error',
        code: 'unknown_field',
        path: `${at}.fieldKey`,
        message: deprecatedAfterRelease
          ? `Field "${entry.fieldKey}" was deprecated after this version's release; it is no longer written.`
          : `The device type has no active field "${entry.fieldKey}".`,
      });
      return;
    }
    if (!field.storageTargets.includes(target)) {
      issues.push({ severity: 'error', code: 'field_target_mismatch', path: `${at}.fieldKey`, message: `Field "${field.key}" is not stored as ${target}.` });
    }
    if (field.schemaRef !== entry.schemaRef) {
      issues.push({ severity: 'error', code: 'schema_ref_mismatch', path: `${at}.schemaRef`, message: `Field "${field.key}" has schemaRef ${field.schemaRef}.` });
    }
  });
  return issues;
}
