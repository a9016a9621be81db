import { PageResponse } from '../../../shared/pagination/page';
import { DeviceTypeResponse } from '../domain/device-type.response.dto';

export class DeviceTypePage extends PageResponse(DeviceTypeResponse) {}
