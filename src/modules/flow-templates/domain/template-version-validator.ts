import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { VersionRecord } from '../../../shared/versioning/version-store';
import { FlowValidator, requiredFieldsOf } from '../../flows';
import type { FlowGraph, ParameterDeclaration, RequiredField, TemplateValidationReport } from '../../flows';

/** The compile report of one template version and the fields its outputs write. */
export interface TemplateVersionReport extends TemplateValidationReport {
  flowTemplateVersionId: string;
  requiredFields: RequiredField[];
}

/**
 * A template version's compile report: the flows' own rules (through their validator, never a copy) with no tenant
 * and no device type, plus the fields its outputs write.
 */
@Injectable()
export class TemplateVersionValidator {
  constructor(private readonly flows: FlowValidator) {}

  async report(manager: EntityManager, version: VersionRecord): Promise<TemplateVersionReport> {
    const graph = version.row.graph as FlowGraph;
    const report = await this.flows.templateReport(manager, graph, version.row.parameters as ParameterDeclaration[]);
    return { flowTemplateVersionId: version.versionId, valid: report.valid, checksum: report.checksum, requiredFields: requiredFieldsOf(graph), issues: report.issues };
  }
}
