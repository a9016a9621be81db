import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import canonicalize from 'canonicalize';
import { DataSource } from 'typeorm';
import type { Caller } from '../../../shared/access/require-permission';
import type { Principal } from '../../../shared/auth/principal';
import { CreateFlowBlockVersionCommand, CreateGlobalFlowBlockCommand, ReleaseFlowBlockVersionCommand } from '../../blocks';
import { normalizeParameters, versionChecksum } from '../../flows';
import type { FlowGraph, ParameterDeclaration } from '../../flows';
import { CreateFlowTemplateVersionCommand } from '../create-flow-template-version/create-flow-template-version.command';
import { CreateFlowTemplateCommand } from '../create-flow-template/create-flow-template.command';
import { ReleaseFlowTemplateVersionCommand } from '../release-flow-template-version/release-flow-template-version.command';
import { UpdateFlowTemplateCommand } from '../update-flow-template/update-flow-template.command';
import { BlockFile, readTemplateDirectory, TemplateFile } from './template-file';

/** What seeding did to each template and block: nothing, or the version it created and released. */
export interface SeedSummary {
  blocks: { key: string; action: 'created' | 'new_version' | 'unchanged'; versionNumber: number }[];
  templates: { key: string; action: 'created' | 'new_version' | 'unchanged'; versionNumber: number }[];
}

/**
 * The operator acting for the seed: a platform administrator without a session. Audit rows name the `system`
 * actor (there is no request), and nothing here pages, so the ids are never used.
 */
const OPERATOR: Principal = { userId: '00000000-0000-0000-0000-000000000000', sessionId: '', username: 'seed:templates', isPlatformAdmin: true, passwordChangeRequired: false };
const blockWriter: Caller = { principal: OPERATOR, permission: 'blocks:write' };
const blockReleaser: Caller = { principal: OPERATOR, permission: 'blocks:release' };

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const sameJson = (a: unknown, b: unknown): boolean => canonicalize(a ?? null) === canonicalize(b ?? null);

/**
 * Loads the starter catalog (`templates/*.json`) through the same commands the API runs, so every block passes its
 * release gates and every template the flow compile rules. Idempotent by key: a template or block whose newest
 * released version already holds the file's content is left alone; a changed file becomes a new version, released.
 */
@Injectable()
export class TemplateCatalogSeeder {
  constructor(
    private readonly dataSource: DataSource,
    private readonly commandBus: CommandBus,
  ) {}

  async seed(dir: string): Promise<SeedSummary> {
    const files = readTemplateDirectory(dir);
    const summary: SeedSummary = { blocks: [], templates: [] };
    for (const file of files) {
      const blockVersions = new Map<string, string>();
      for (const block of file.blocks ?? []) {
        const seeded = await this.seedBlock(block);
        blockVersions.set(block.key, seeded.flowBlockVersionId);
        if (!summary.blocks.some((entry) => entry.key === block.key)) summary.blocks.push({ key: block.key, action: seeded.action, versionNumber: seeded.versionNumber });
      }
      summary.templates.push(await this.seedTemplate(file, blockVersions));
    }
    return summary;
  }

  private async seedBlock(block: BlockFile): Promise<{ flowBlockVersionId: string; versionNumber: number; action: SeedSummary['blocks'][number]['action'] }> {
    let [row] = await this.dataSource.query<{ flow_block_id: string }[]>(`SELECT flow_block_id FROM flow_blocks WHERE tenant_id IS NULL AND key = $1`, [block.key]);
    let action: SeedSummary['blocks'][number]['action'] = 'new_version';
    if (!row) {
      const created = await this.commandBus.execute(new CreateGlobalFlowBlockCommand(OPERATOR, { key: block.key, name: block.name, description: block.description }));
      row = { flow_block_id: created.flowBlockId };
      action = 'created';
    }
    const [latest] = await this.dataSource.query<
      { flow_block_version_id: string; version_number: number; source_sha256: string; configuration_schema: unknown; sample_input: unknown }[]
    >(
      `SELECT flow_block_version_id, version_number, source_sha256, configuration_schema, sample_input FROM flow_block_versions
        WHERE flow_block_id = $1 AND status = 'released' ORDER BY version_number DESC LIMIT 1`,
      [row.flow_block_id],
    );
    if (
      latest &&
      latest.source_sha256 === sha256(block.sourceCode) &&
      sameJson(latest.configuration_schema, block.configurationSchema) &&
      sameJson(latest.sample_input, block.sampleInput)
    ) {
      return { flowBlockVersionId: latest.flow_block_version_id, versionNumber: latest.version_number, action: 'unchanged' };
    }
    const draft = await this.commandBus.execute(
      new CreateFlowBlockVersionCommand(blockWriter, row.flow_block_id, {
        sourceCode: block.sourceCode,
        sampleInput: block.sampleInput,
        ...(block.configurationSchema ? { configurationSchema: block.configurationSchema } : {}),
        ...(block.notes ? { notes: block.notes } : {}),
      }),
    );
    await this.commandBus.execute(new ReleaseFlowBlockVersionCommand(blockReleaser, row.flow_block_id, draft.flowBlockVersionId));
    return { flowBlockVersionId: draft.flowBlockVersionId, versionNumber: draft.versionNumber, action };
  }

  private async seedTemplate(file: TemplateFile, blockVersions: Map<string, string>): Promise<SeedSummary['templates'][number]> {
    const graph = resolveBlocks(file, blockVersions);
    const parameters = normalizeParameters((file.parameters ?? []) as unknown as ParameterDeclaration[]);
    let [row] = await this.dataSource.query<{ flow_template_id: string; name: string; description: string }[]>(
      `SELECT flow_template_id, name, description FROM flow_templates WHERE key = $1`,
      [file.key],
    );
    let action: SeedSummary['templates'][number]['action'] = 'new_version';
    if (!row) {
      const created = await this.commandBus.execute(new CreateFlowTemplateCommand({ key: file.key, name: file.name, description: file.description }));
      row = { flow_template_id: created.flowTemplateId, name: file.name, description: file.description ?? '' };
      action = 'created';
    } else if (row.name !== file.name || row.description !== (file.description ?? '')) {
      await this.commandBus.execute(new UpdateFlowTemplateCommand(row.flow_template_id, { name: file.name, description: file.description ?? '' }));
    }
    const [newest] = await this.dataSource.query<{ flow_template_version_id: string; version_number: number; status: string; graph: unknown; parameters: unknown }[]>(
      `SELECT flow_template_version_id, version_number, status, graph, parameters FROM flow_template_versions
        WHERE flow_template_id = $1 ORDER BY version_number DESC LIMIT 1`,
      [row.flow_template_id],
    );
    const checksum = versionChecksum(graph, parameters);
    if (newest && versionChecksum(newest.graph, newest.parameters) === checksum) {
      // A draft left by an earlier run whose release failed is released now; a released or deprecated one stays.
      if (newest.status === 'draft') await this.commandBus.execute(new ReleaseFlowTemplateVersionCommand(row.flow_template_id, newest.flow_template_version_id));
      return { key: file.key, action: newest.status === 'draft' ? action : 'unchanged', versionNumber: newest.version_number };
    }
    const draft = await this.commandBus.execute(new CreateFlowTemplateVersionCommand(row.flow_template_id, { graph, parameters }));
    await this.commandBus.execute(new ReleaseFlowTemplateVersionCommand(row.flow_template_id, draft.flowTemplateVersionId));
    return { key: file.key, action, versionNumber: draft.versionNumber };
  }
}

/** The file's graph with `{"type": "custom", "blockKey": k}` replaced by the id of block k's seeded version. */
function resolveBlocks(file: TemplateFile, blockVersions: Map<string, string>): FlowGraph {
  const nodes = file.graph.nodes.map((node) => {
    const block = node.block as Record<string, unknown> | null;
    if (!block || block.type !== 'custom' || typeof block.blockKey !== 'string') return node;
    const flowBlockVersionId = blockVersions.get(block.blockKey);
    if (!flowBlockVersionId) throw new Error(`${file.file}: node "${String(node.nodeId)}" names block "${block.blockKey}", which the file does not ship`);
    return { ...node, block: { type: 'custom', flowBlockVersionId } };
  });
  return { ...file.graph, nodes } as unknown as FlowGraph;
}
