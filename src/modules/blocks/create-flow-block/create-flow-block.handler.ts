import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccessService } from '../../../shared/access/access.service';
import { ConflictError } from '../../../shared/errors/domain-error';
import { TransactionScope, UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowBlockResponse } from '../dto/flow-block.response.dto';
import { FLOW_BLOCK_CONSTRAINTS, FlowBlockStore, MAX_TENANT_BLOCKS } from '../persistence/flow-block.store';
import type { CreateFlowBlockRequest } from '../dto/flow-block.request.dto';
import { CreateGlobalFlowBlockCommand, CreateTenantFlowBlockCommand } from './create-flow-block.command';

/**
 * Inserts a block in its scope: the key is unique per scope (409 `duplicate_key`), and a tenant holds at most
 * 500 blocks (409 `max_blocks`), counted under a per-scope lock so parallel creates cannot pass the limit.
 */
async function insertBlock(unitOfWork: UnitOfWork, store: FlowBlockStore, tenantId: string | null, input: CreateFlowBlockRequest): Promise<FlowBlockResponse> {
  return unitOfWork.run(
    async (tx: TransactionScope) => {
      await store.lockScope(tx.manager, tenantId);
      if (tenantId !== null) {
        const [{ count }] = await tx.manager.query<{ count: number }[]>(`SELECT count(*)::int AS count FROM flow_blocks WHERE tenant_id = $1`, [tenantId]);
        if (count >= MAX_TENANT_BLOCKS) {
          throw new ConflictError('max_blocks', `A tenant holds at most ${MAX_TENANT_BLOCKS} custom blocks.`, { limit: MAX_TENANT_BLOCKS });
        }
      }
      const [{ flow_block_id: flowBlockId }] = await tx.manager.query<{ flow_block_id: string }[]>(
        `INSERT INTO flow_blocks (scope, tenant_id, key, name, description) VALUES ($1, $2, $3, $4, $5) RETURNING flow_block_id`,
        [tenantId === null ? 'global' : 'tenant', tenantId, input.key, input.name, input.description ?? ''],
      );
      const block = await store.response(tx.manager, flowBlockId);
      await tx.audit({
        eventType: 'flow_block.created',
        action: 'create',
        entityType: 'flow_block',
        entityId: flowBlockId,
        tenantId,
        metadata: { scope: block.scope, key: block.key, name: block.name },
      });
      return block;
    },
    { constraints: FLOW_BLOCK_CONSTRAINTS },
  );
}

@CommandHandler(CreateGlobalFlowBlockCommand)
export class CreateGlobalFlowBlockHandler implements ICommandHandler<CreateGlobalFlowBlockCommand, FlowBlockResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowBlockStore,
  ) {}

  execute({ input }: CreateGlobalFlowBlockCommand): Promise<FlowBlockResponse> {
    return insertBlock(this.unitOfWork, this.store, null, input);
  }
}

/** A block of the tenant (`blocks:write` through a tenant-level grant). */
@CommandHandler(CreateTenantFlowBlockCommand)
export class CreateTenantFlowBlockHandler implements ICommandHandler<CreateTenantFlowBlockCommand, FlowBlockResponse> {
  constructor(
    private readonly accessService: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowBlockStore,
  ) {}

  async execute({ caller, tenantNumber, input }: CreateTenantFlowBlockCommand): Promise<FlowBlockResponse> {
    const access = await this.accessService.tenantByNumber(caller.principal, tenantNumber);
    access.require(caller.permission);
    return insertBlock(this.unitOfWork, this.store, access.tenant.tenantId, input);
  }
}
