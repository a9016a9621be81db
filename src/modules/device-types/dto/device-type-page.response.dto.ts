import { PageResponse } from '../../../shared/pagination/page';
import { DeviceTypeResponse } from './device-type.response.dto';

export class DeviceTypePage extends PageResponse(DeviceTypeResponse) {}
