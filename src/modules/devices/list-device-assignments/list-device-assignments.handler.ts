import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { namedPredicate } from '../../../shared/access/named-predicate';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import type { Page } from '../../../shared/pagination/page';
import { DeviceAssignmentEntity } from '../persistence/device-assignment.entity';
import { DeviceReader } from '../persistence/device.reader';
import { DeviceAssignmentResponse } from '../dto/device.response.dto';
import { ListDeviceAssignmentsQuery } from './list-device-assignments.query';

/** The device's periods in units the caller can access, ascending by (createdAt, id). */
@QueryHandler(ListDeviceAssignmentsQuery)
export class ListDeviceAssignmentsHandler implements IQueryHandler<ListDeviceAssignmentsQuery, Page<DeviceAssignmentResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reader: DeviceReader,
    private readonly paginator: KeysetPaginator,
  ) {}

  async execute({ caller, deviceId, params }: ListDeviceAssignmentsQuery): Promise<Page<DeviceAssignmentResponse>> {
    const { access, current } = await this.reader.resolve(caller.principal, deviceId);
    access.require(caller.permission, this.reader.target(current));
    const visible = namedPredicate(access.accessibleUnits('u', caller.permission, 0), 'visible');
    const query = this.dataSource
      .getRepository(DeviceAssignmentEntity)
      .createQueryBuilder('a')
      .innerJoin('organization_units', 'u', 'u.organization_unit_id = a.organization_unit_id')
      .where('a.device_id = :deviceId', { deviceId })
      .andWhere(visible.sql, visible.params);
    const page = await this.paginator.ascending(
      query,
      { createdAt: 'a.created_at', id: 'a.device_assignment_id' },
      { actorId: caller.principal.userId, scope: `devices/${deviceId}/assignments`, filters: {}, limit: params.limit, cursor: params.cursor },
    );
    return { ...page, items: page.items.map((assignment) => DeviceAssignmentResponse.of(assignment)) };
  }
}
