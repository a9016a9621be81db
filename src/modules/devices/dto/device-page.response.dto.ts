import { PageResponse } from '../../../shared/pagination/page';
import { DeviceResponse } from './device.response.dto';

export class DevicePage extends PageResponse(DeviceResponse) {}
