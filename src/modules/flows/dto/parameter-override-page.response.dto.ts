import { PageResponse } from '../../../shared/pagination/page';
import { ParameterOverrideResponse } from './parameter-override.response.dto';

export class ParameterOverridePage extends PageResponse(ParameterOverrideResponse) {}
