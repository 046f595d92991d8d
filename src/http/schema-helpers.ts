import { Type } from 'typebox';
import type { TSchema } from 'typebox';

/** A field that may be null, as most fields of the published DTOs may. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
