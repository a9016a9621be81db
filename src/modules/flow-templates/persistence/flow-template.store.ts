import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ConflictError, ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { CursorCodec } from '../../../shared/pagination/cursor-codec';
import { VersionStore } from '../../../shared/versioning/version-store';
import type { RequiredField } from '../../flows';
import { FlowTemplateEntity } from './flow-template.entity';
import { FlowTemplateResponse, LatestRelease } from '../dto/flow-template.response.dto';

export const flowTemplateNotFound = () => new ResourceNotFoundError('flow_template');
export const flowTemplateVersionNotFound = () => new ResourceNotFoundError('flow_template_version');
export const duplicateTemplateKey = () => new ConflictError('duplicate_key', 'A flow template with this key already exists.');

/** The migration's unique key constraint. */
export const FLOW_TEMPLATE_CONSTRAINTS = { flow_templates_key_key: duplicateTemplateKey };

/**
 * Rows of flow templates and their versions. Templates are global: every signed-in caller sees them all, so a
 * missing id is the only 404.
 */
@Injectable()
export class FlowTemplateStore {
  readonly versions: VersionStore;

  constructor(
    private readonly dataSource: DataSource,
    codec: CursorCodec,
  ) {
    this.versions = new VersionStore(
      {
        parentEntityType: 'flow_template',
        versionEntityType: 'flow_template_version',
        parent: { table: 'flow_templates', id: 'flow_template_id' },
        version: { table: 'flow_template_versions', id: 'flow_template_version_id', parent: 'flow_template_id', number: 'version_number', status: 'status' },
        parentNotFound: flowTemplateNotFound,
        versionNotFound: flowTemplateVersionNotFound,
      },
      codec,
    );
  }

  /** The template, or its 404. */
  async find(flowTemplateId: string, manager: EntityManager = this.dataSource.manager): Promise<FlowTemplateEntity> {
    const template = await manager.findOneBy(FlowTemplateEntity, { flowTemplateId });
    if (!template) throw flowTemplateNotFound();
    return template;
  }

  async response(manager: EntityManager, flowTemplateId: string): Promise<FlowTemplateResponse> {
    const template = await this.find(flowTemplateId, manager);
    const [summary] = await this.summaries(manager, [flowTemplateId]);
    return FlowTemplateResponse.of(template, summary);
  }

  /** Per template: the newest version number and the newest released version (null when none). */
  async summaries(manager: EntityManager, flowTemplateIds: string[]): Promise<{ latestVersionNumber: number | null; latestRelease: LatestRelease | null }[]> {
    if (flowTemplateIds.length === 0) return [];
    const rows = await manager.query<{ id: string; latest: number | null; released_id: string | null; released_number: number | null; required_fields: RequiredField[] | null }[]>(
      `SELECT t.id, latest.n AS latest, released.flow_template_version_id AS released_id, released.version_number AS released_number,
              released.required_fields
         FROM unnest($1::uuid[]) AS t(id)
         LEFT JOIN LATERAL (SELECT MAX(version_number) AS n FROM flow_template_versions WHERE flow_template_id = t.id) latest ON true
         LEFT JOIN LATERAL (
           SELECT flow_template_version_id, version_number, required_fields FROM flow_template_versions
            WHERE flow_template_id = t.id AND status = 'released' ORDER BY version_number DESC LIMIT 1
         ) released ON true`,
      [flowTemplateIds],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return flowTemplateIds.map((id) => {
      const row = byId.get(id);
      return {
        latestVersionNumber: row?.latest === null || row?.latest === undefined ? null : Number(row.latest),
        latestRelease:
          row?.released_id
            ? { flowTemplateVersionId: row.released_id, versionNumber: Number(row.released_number), requiredFields: row.required_fields ?? [] }
            : null,
      };
    });
  }
}
