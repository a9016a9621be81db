import { createHash } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DependencyFailureError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import type { ScriptContract } from '../../sandbox';
import { ScriptSandbox } from '../../sandbox';
import { BlockConfigurationService } from '../domain/block-configuration.service';
import { FlowBlockVersionResponse } from '../dto/flow-block-version.response.dto';
import { FlowBlockStore } from '../persistence/flow-block.store';
import { CreateFlowBlockVersionCommand } from './create-flow-block-version.command';

export const sha256Of = (source: string): string => createHash('sha256').update(source, 'utf8').digest('hex');

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
