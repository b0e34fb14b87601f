import { SCIM_SCHEMAS, type ScimErrorBody } from '../../../domain/schemas/scim';

/** RFC 7644 §3.12, Table 9: the detail error keywords Crewboard answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue';

/** An expected SCIM failure: answered in the SCIM error shape with its status (as a string) and scimType. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export function scimErrorBody(status: number, detail: string, scimType?: ScimType): ScimErrorBody {
  return { schemas: [SCIM_SCHEMAS.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

export const scimNotFound = (what: 'User' | 'Group' | 'Resource', id: string) =>
  new ScimError(404, `${what} ${JSON.stringify(id.slice(0, 80))} not found`);
export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
