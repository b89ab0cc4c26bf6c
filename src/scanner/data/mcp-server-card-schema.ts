// The MCP Server Card JSON Schema (v2), pinned from github.com/modelcontextprotocol/experimental-ext-server-card
// schema.json at commit 056d9f28 (the version the research note cites: `$schema` .../schemas/v2/server-card.schema.json,
// additionalProperties false; the 2026-07-24 snapshot HEAD 8924e08 still carried the v1 pattern). The repository
// generates it from schema.ts. Copied except that the prose `description` strings are dropped (they carry no
// constraint) and a root `$ref` to ServerCard is added so one validator checks a whole card.
// test/scanner/mcp-discovery.test.ts validates the repository's own examples (test/fixtures/mcp-server-card/) against it.
// Bump by copying the file again, never by hand.
export const SERVER_CARD_SCHEMA_SOURCE = 'modelcontextprotocol/experimental-ext-server-card schema.json @ 056d9f28';
export const SERVER_CARD_SCHEMA_ID = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';

export const SERVER_CARD_SCHEMA = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {
    "Icon": {
      "additionalProperties": false,
      "properties": {
        "mimeType": {
          "type": "string"
        },
        "sizes": {
          "items": {
            "type": "string"
          },
          "type": "array"
        },
        "src": {
          "format": "uri",
          "type": "string"
        },
        "theme": {
          "enum": [
            "dark",
            "light"
          ],
          "type": "string"
        }
      },
      "required": [
        "src"
      ],
      "type": "object"
    },
    "Input": {
      "additionalProperties": false,
      "properties": {
        "choices": {
          "items": {
            "type": "string"
          },
          "type": "array"
        },
        "default": {
          "type": "string"
        },
        "description": {
          "type": "string"
        },
        "format": {
          "enum": [
            "boolean",
            "filepath",
            "number",
            "string"
          ],
          "type": "string"
        },
        "isRequired": {
          "type": "boolean"
        },
        "isSecret": {
          "type": "boolean"
        },
        "placeholder": {
          "type": "string"
        },
        "value": {
          "type": "string"
        }
      },
      "type": "object"
    },
    "KeyValueInput": {
      "additionalProperties": false,
      "properties": {
        "choices": {
          "items": {
            "type": "string"
          },
          "type": "array"
        },
        "default": {
          "type": "string"
        },
        "description": {
          "type": "string"
        },
        "format": {
          "enum": [
            "boolean",
            "filepath",
            "number",
            "string"
          ],
          "type": "string"
        },
        "isRequired": {
          "type": "boolean"
        },
        "isSecret": {
          "type": "boolean"
        },
        "placeholder": {
          "type": "string"
        },
        "value": {
          "type": "string"
        },
        "name": {
          "type": "string"
        },
        "variables": {
          "additionalProperties": {
            "$ref": "#/$defs/Input"
          },
          "type": "object"
        }
      },
      "required": [
        "name"
      ],
      "type": "object"
    },
    "MetaObject": {
      "additionalProperties": {},
      "type": "object"
    },
    "Remote": {
      "additionalProperties": false,
      "properties": {
        "headers": {
          "items": {
            "$ref": "#/$defs/KeyValueInput"
          },
          "type": "array"
        },
        "supportedProtocolVersions": {
          "items": {
            "type": "string"
          },
          "type": "array"
        },
        "type": {
          "enum": [
            "sse",
            "streamable-http"
          ],
          "type": "string"
        },
        "url": {
          "pattern": "^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$",
          "type": "string"
        },
        "variables": {
          "additionalProperties": {
            "$ref": "#/$defs/Input"
          },
          "type": "object"
        }
      },
      "required": [
        "type",
        "url"
      ],
      "type": "object"
    },
    "Repository": {
      "additionalProperties": false,
      "properties": {
        "id": {
          "type": "string"
        },
        "source": {
          "type": "string"
        },
        "subfolder": {
          "type": "string"
        },
        "url": {
          "format": "uri",
          "type": "string"
        }
      },
      "required": [
        "source",
        "url"
      ],
      "type": "object"
    },
    "ServerCard": {
      "additionalProperties": false,
      "properties": {
        "$schema": {
          "format": "uri",
          "pattern": "^https://static\\.modelcontextprotocol\\.io/schemas/v2/server-card\\.schema\\.json$",
          "type": "string"
        },
        "_meta": {
          "$ref": "#/$defs/MetaObject"
        },
        "description": {
          "maxLength": 100,
          "minLength": 1,
          "type": "string"
        },
        "icons": {
          "items": {
            "$ref": "#/$defs/Icon"
          },
          "type": "array"
        },
        "name": {
          "maxLength": 200,
          "minLength": 3,
          "pattern": "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$",
          "type": "string"
        },
        "remotes": {
          "items": {
            "$ref": "#/$defs/Remote"
          },
          "type": "array"
        },
        "repository": {
          "$ref": "#/$defs/Repository"
        },
        "title": {
          "maxLength": 100,
          "minLength": 1,
          "type": "string"
        },
        "version": {
          "maxLength": 255,
          "type": "string"
        },
        "websiteUrl": {
          "format": "uri",
          "type": "string"
        }
      },
      "required": [
        "$schema",
        "description",
        "name",
        "version"
      ],
      "type": "object"
    }
  },
  "$ref": "#/$defs/ServerCard"
} as const;
