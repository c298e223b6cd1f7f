/**
 * The OpenAPI 3.1 objects the kit reads (OAS 3.1 §4.8), declared here so the package's public types
 * depend on nothing but the kit: a user's `tsc` checks these declarations without any build tool's types
 * installed. Only the fixed fields the kit reads are spelled out; everything else, extensions (`x-…`)
 * included, is open.
 * @module
 */

/** Fields a specification object may carry beyond its fixed ones (OAS 3.1 §4.9 extensions among them). */
interface Open {
  [field: string]: unknown;
}

/** OAS 3.1 §4.8.23. */
export interface ReferenceObject {
  $ref: string;
  summary?: string;
  description?: string;
}

/** A JSON Schema 2020-12 schema (OAS 3.1 §4.8.24): a boolean or an object of keywords. */
export type SchemaObject = boolean | Open;

/** OAS 3.1 §4.8.14. */
export interface MediaTypeObject extends Open {
  schema?: SchemaObject | ReferenceObject;
  example?: unknown;
  examples?: Record<string, Open | ReferenceObject>;
}

/** OAS 3.1 §4.8.21. */
export interface HeaderObject extends Open {
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  schema?: SchemaObject | ReferenceObject;
  content?: Record<string, MediaTypeObject>;
}

/** OAS 3.1 §4.8.12. */
export interface ParameterObject extends Open {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  style?: string;
  explode?: boolean;
  schema?: SchemaObject | ReferenceObject;
  content?: Record<string, MediaTypeObject>;
}

/** OAS 3.1 §4.8.13. */
export interface RequestBodyObject extends Open {
  description?: string;
  content: Record<string, MediaTypeObject>;
  required?: boolean;
}

/** OAS 3.1 §4.8.17. */
export interface ResponseObject extends Open {
  description: string;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  content?: Record<string, MediaTypeObject>;
  links?: Record<string, Open | ReferenceObject>;
}

/** OAS 3.1 §4.8.10. */
export interface OperationObject extends Open {
  tags?: string[];
  summary?: string;
  description?: string;
  operationId?: string;
  parameters?: (ParameterObject | ReferenceObject)[];
  requestBody?: RequestBodyObject | ReferenceObject;
  responses?: Record<string, ResponseObject | ReferenceObject>;
  callbacks?: Record<string, Open | ReferenceObject>;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
}

/** OAS 3.1 §4.8.9. */
export interface PathItemObject extends Open {
  $ref?: string;
  summary?: string;
  description?: string;
  get?: OperationObject;
  put?: OperationObject;
  post?: OperationObject;
  delete?: OperationObject;
  options?: OperationObject;
  head?: OperationObject;
  patch?: OperationObject;
  trace?: OperationObject;
  parameters?: (ParameterObject | ReferenceObject)[];
}

/** OAS 3.1 §4.8.7. */
export interface ComponentsObject extends Open {
  schemas?: Record<string, SchemaObject>;
  responses?: Record<string, ResponseObject | ReferenceObject>;
  parameters?: Record<string, ParameterObject | ReferenceObject>;
  examples?: Record<string, Open | ReferenceObject>;
  requestBodies?: Record<string, RequestBodyObject | ReferenceObject>;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  securitySchemes?: Record<string, Open | ReferenceObject>;
  links?: Record<string, Open | ReferenceObject>;
  callbacks?: Record<string, Open | ReferenceObject>;
  pathItems?: Record<string, PathItemObject | ReferenceObject>;
}

/** OAS 3.1 §4.8.5 and §4.8.6. */
export interface ServerObject extends Open {
  url: string;
  description?: string;
  variables?: Record<string, Open & { default: string; enum?: string[]; description?: string }>;
}

/** OAS 3.1 §4.8.22. */
export interface TagObject extends Open {
  name: string;
  description?: string;
}

/** An OpenAPI 3.1 document (OAS 3.1 §4.8.1); the contract declares `openapi: 3.1.x`. */
export interface OpenApiDocument extends Open {
  openapi: string;
  info: Open & { title: string; version: string; description?: string };
  jsonSchemaDialect?: string;
  servers?: ServerObject[];
  paths?: Record<string, PathItemObject>;
  webhooks?: Record<string, PathItemObject | ReferenceObject>;
  components?: ComponentsObject;
  security?: Record<string, string[]>[];
  tags?: TagObject[];
}
