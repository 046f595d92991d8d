import { Type } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';

/** Wire shapes of the Files API (spec definitions `UploadedFileDto`, `RemoteUploadedFileDto`, `PageDtoUploadedFileDto`). */

export const FileUidParams = Type.Object({ fileUid: Type.String({ maxLength: 64 }) });

export const UploadedFileDto = Type.Object(
  {
    uid: Type.String(),
    name: Type.String(),
    size: Type.Integer({ description: 'Bytes' }),
    type: Type.String({ description: 'The media type the file was uploaded with (application/octet-stream when none was given).' }),
  },
  { title: 'UploadedFileDto' },
);

export const UploadedFilePage = PageOf(UploadedFileDto, 'PageDtoUploadedFileDto');

export const FileListQuery = Type.Object({
  ...PagingQuery,
  name: Type.Optional(Type.String({ maxLength: 1024, description: 'Part of the file name, ignoring case' })),
  types: Type.Optional(
    Type.Array(Type.String({ maxLength: 255 }), {
      maxItems: 50,
      description: 'Media types, e.g. text/plain (repeat the parameter for several)',
    }),
  ),
  createdBy: Type.Optional(Type.Integer({ minimum: 1, description: 'Id of the user who uploaded the file' })),
  biggerThan: Type.Optional(Type.Integer({ minimum: 0, description: 'Size in bytes' })),
});

/** Spec `RemoteUploadedFileDto`: the JSON form of an upload names a URL to fetch the file from. */
export const RemoteUploadedFileBody = Type.Object(
  { url: Type.String({ minLength: 1, maxLength: 2048 }) },
  { title: 'RemoteUploadedFileDto' },
);
