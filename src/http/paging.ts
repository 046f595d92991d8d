import { Type } from 'typebox';
import type { TSchema } from 'typebox';

/**
 * TMS paging (description, "Paging"): `pageNumber` from 0 (default 0) and `pageSize` 1..50
 * (default 50). Values out of range are rejected with 400 by schema validation, never clamped.
 */
export const PAGE_SIZE_MAX = 50;

export const PagingQuery = {
  pageNumber: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 0, description: 'Page number, starting with 0, default 0' }),
  pageSize: Type.Integer({
    minimum: 1,
    maximum: PAGE_SIZE_MAX,
    default: PAGE_SIZE_MAX,
    description: 'Page size, accepts values between 1 and 50, default 50',
  }),
};

/**
 * The paging of a list whose published operation declares a larger page (`lastLogins`: 1 to 100,
 * default 100): the same fields with that operation's maximum and default.
 */
export function pagingQueryUpTo(maximum: number) {
  return {
    pageNumber: PagingQuery.pageNumber,
    pageSize: Type.Integer({
      minimum: 1,
      maximum,
      default: maximum,
      description: `Page size, accepts values between 1 and ${maximum}, default ${maximum}`,
    }),
  };
}

export interface PageRequest {
  pageNumber: number;
  pageSize: number;
}

export interface Page<T> {
  totalElements: number;
  totalPages: number;
  pageSize: number;
  pageNumber: number;
  numberOfElements: number;
  content: T[];
}

/** The row window a repository should read for a page. */
export function pageWindow(page: PageRequest): { offset: number; limit: number } {
  return { offset: page.pageNumber * page.pageSize, limit: page.pageSize };
}

/** The spec's page envelope around one page of records. */
export function toPage<T>(content: T[], totalElements: number, page: PageRequest): Page<T> {
  return {
    totalElements,
    totalPages: Math.ceil(totalElements / page.pageSize),
    pageSize: page.pageSize,
    pageNumber: page.pageNumber,
    numberOfElements: content.length,
    content,
  };
}

/** The response schema of a page of `item`. */
export function PageOf<T extends TSchema>(item: T, name?: string) {
  return Type.Object(
    {
      totalElements: Type.Integer(),
      totalPages: Type.Integer(),
      pageSize: Type.Integer(),
      pageNumber: Type.Integer(),
      numberOfElements: Type.Integer(),
      content: Type.Array(item),
    },
    name ? { title: name } : {},
  );
}
