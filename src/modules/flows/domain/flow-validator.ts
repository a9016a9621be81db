import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import canonicalize from 'canonicalize';
import { EntityManager } from 'typeorm';
import { DomainError } from '../../../shared/errors/domain-error';
import { FieldContractReader } from '../../device-types';
import type { VersionRecord } from '../../../shared/versioning/version-store';
import { BLOCK_VERSION_LOOKUP, BlockVersionLookup, EMAIL_TEMPLATE_LOOKUP, EmailTemplateLookup } from './graph/block-version-lookup';
import { FieldInfo, ValidationIssue, validationIssues } from './graph/flow-graph-validator';
import { outputTargetOf, type FlowGraph, type OutputTarget, type ParameterDeclaration } from './graph/flow-graph';

/** At most this many issues travel in a 422's `details.issues`. */
export const MAX_REPORTED_ISSUES = 100;

/** Lowercase hex SHA-256 of the RFC 8785 canonical JSON of {graph, parameters}. */
export function versionChecksum(graph: unknown, parameters: unknown): string {
  return createHash('sha256').update(canonicalize({ graph, parameters })!, 'utf8').digest('hex');
}

export interface ValidationReport {
  flowVersionId: string;
  valid: boolean;
  checksum: string;
  issues: ValidationIssue[];
}

/** 422 FLOW_FAILURE (compile gate) with the version's issues. */
export function compileFailure(issues: ValidationIssue[]): DomainError {
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  return new DomainError('FLOW_FAILURE', `The flow version does not compile: ${errors} error${errors === 1 ? '' : 's'}.`, {
    gate: 'compile',
    issues: issues.slice(0, MAX_REPORTED_ISSUES),
  });
}

/** A field a template's outputs write, which a device type must have for a copy of the template to release. */
export interface RequiredField {
  key: string;
  schemaRef: string;
  storageTargets: OutputTarget[];
}

/** The fields the output nodes of `graph` write: key, schemaRef and the outputs (storage targets) writing it. */
export function requiredFieldsOf(graph: FlowGraph): RequiredField[] {
  const fields = new Map<string, RequiredField>();
  for (const node of graph.nodes) {
    const target = outputTargetOf(node.kind);
    if (!target || !Array.isArray(node.configuration.fields)) continue;
    for (const entry of node.configuration.fields as { fieldKey: string; schemaRef: string }[]) {
      const field = fields.get(entry.fieldKey) ?? { key: entry.fieldKey, schemaRef: entry.schemaRef, storageTargets: [] };
      if (!field.storageTargets.includes(target)) field.storageTargets.push(target);
      fields.set(entry.fieldKey, field);
    }
  }
  const order: OutputTarget[] = ['current', 'timeseries'];
  return [...fields.values()].map((field) => ({ ...field, storageTargets: order.filter((target) => field.storageTargets.includes(target)) }));
}

/** The compile report of a graph that belongs to no tenant (a flow template). */
export interface TemplateValidationReport {
  valid: boolean;
  checksum: string;
  issues: ValidationIssue[];
}

/** Runs the compile rules over a version against the device type's current fields and the current block catalog. */
@Injectable()
export class FlowValidator {
  constructor(
    @Inject(BLOCK_VERSION_LOOKUP) private readonly blocks: BlockVersionLookup,
    @Inject(EMAIL_TEMPLATE_LOOKUP) private readonly emailTemplates: EmailTemplateLookup,
    private readonly fieldContracts: FieldContractReader,
  ) {}

  async report(manager: EntityManager, tenantId: string, deviceTypeId: string, version: VersionRecord): Promise<ValidationReport> {
    const graph = version.row.graph as FlowGraph;
    const parameters = version.row.parameters as ParameterDeclaration[];
    const { fields } = await this.fieldContracts.current(deviceTypeId, manager);
    const customIds = [...new Set(graph.nodes.flatMap((node) => (node.block?.type === 'custom' ? [node.block.flowBlockVersionId.toLowerCase()] : [])))];
    const templateIds = [
      ...new Set(
        graph.nodes.flatMap((node) =>
          node.block?.type === 'builtin' && node.block.key === 'email-action' && typeof node.configuration.emailTemplateId === 'string'
            ? [node.configuration.emailTemplateId]
            : [],
        ),
      ),
    ];
    const issues = validationIssues(graph, parameters, {
      tenantId,
      fields: fields.map((field): FieldInfo => ({
        key: field.key,
        schemaRef: field.schemaRef,
        storageTargets: [...field.storageTargets],
        status: field.status,
        deprecatedAt: field.deprecatedAt,
      })),
      customBlocks: customIds.length ? await this.blocks.findVersions(manager, customIds) : new Map(),
      emailTemplates: templateIds.length ? await this.emailTemplates.findTemplates(manager, templateIds) : new Map(),
      releasedAt: version.row.released_at ? new Date(version.row.released_at as string) : null,
    });
    return {
      flowVersionId: version.versionId,
      valid: !issues.some((issue) => issue.severity === 'error'),
      checksum: versionChecksum(graph, parameters),
      issues,
    };
  }

  /**
   * The compile rules over a flow template's graph: the same rules as a flow's, with only built-in blocks and
   * released global custom block versions usable (a tenant's block is `unknown_block`), no device type to check
   * the output fields against (they must only agree with each other), and no tenant e-mail template to name.
   */
  async templateReport(manager: EntityManager, graph: FlowGraph, parameters: ParameterDeclaration[]): Promise<TemplateValidationReport> {
    const customIds = [...new Set(graph.nodes.flatMap((node) => (node.block?.type === 'custom' ? [node.block.flowBlockVersionId.toLowerCase()] : [])))];
    const issues = validationIssues(graph, parameters, {
      tenantId: null,
      fields: null,
      customBlocks: customIds.length ? await this.blocks.findVersions(manager, customIds) : new Map(),
      emailTemplates: new Map(),
      releasedAt: null,
    });
    return { valid: !issues.some((issue) => issue.severity === 'error'), checksum: versionChecksum(graph, parameters), issues };
  }
}
