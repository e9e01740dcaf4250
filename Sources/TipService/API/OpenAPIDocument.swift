// Written by scripts/openapi.sh from docs/openapi.yaml: edit that file and run the script.

/// The service's API as OpenAPI 3.1 JSON, answered at `GET /v1/openapi.json`.
enum OpenAPIDocument {
    static let json = #"""
        {
         "openapi": "3.1.0",
         "info": {
          "title": "tipc serve",
          "version": "0.1.0",
          "summary": "Contextual in-app tips evaluated for many users, for apps without the Swift runtime.",
          "description": "Each request opens the user's records with the current rule pack and answers as the device\nruntime would. A write answered 2xx is durable; a request that fails changes nothing.\nBodies are JSON. User ids are opaque strings of 1 to 128 bytes (UTF-8), percent-encoded\nin the path.\n",
          "license": {
           "name": "Apache-2.0",
           "identifier": "Apache-2.0"
          }
         },
         "servers": [
          {
           "url": "http://127.0.0.1:8080"
          }
         ],
         "security": [
          {},
          {
           "apiKey": []
          }
         ],
         "tags": [
          {
           "name": "tips"
          },
          {
           "name": "users"
          },
          {
           "name": "events and parameters"
          },
          {
           "name": "sync"
          },
          {
           "name": "pack"
          },
          {
           "name": "analytics"
          },
          {
           "name": "operations"
          }
         ],
         "paths": {
          "/v1/users/{user}/tips": {
           "get": {
            "tags": [
             "tips"
            ],
            "operationId": "getTips",
            "summary": "Every tip (or the one `tip` names) with its decision now and what to show.",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             },
             {
              "name": "tip",
              "in": "query",
              "description": "One tip, or one instance of a keyed tip (`newTrail[42]`).",
              "schema": {
               "type": "string"
              }
             },
             {
              "$ref": "#/components/parameters/locale"
             },
             {
              "$ref": "#/components/parameters/placeholderValues"
             }
            ],
            "responses": {
             "200": {
              "description": "The tips.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Tips"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}": {
           "delete": {
            "tags": [
             "users"
            ],
            "operationId": "deleteUser",
            "summary": "Deletes every record of the user (donations, parameters, tip records), in one transaction.",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             }
            ],
            "responses": {
             "204": {
              "description": "The user has no records any more (also when they had none)."
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}/export": {
           "get": {
            "tags": [
             "users"
            ],
            "operationId": "exportUser",
            "summary": "The user's records, as `tipc store export` writes a store (the shape sync takes and answers).",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             }
            ],
            "responses": {
             "200": {
              "description": "The user's snapshot.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Snapshot"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}/groups/{group}": {
           "get": {
            "tags": [
             "tips"
            ],
            "operationId": "getGroupTip",
            "summary": "The tip the group offers now (its current tip), or null.",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             },
             {
              "name": "group",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "$ref": "#/components/parameters/locale"
             },
             {
              "$ref": "#/components/parameters/placeholderValues"
             }
            ],
            "responses": {
             "200": {
              "description": "The group and its current tip.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/GroupTip"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}/events": {
           "post": {
            "tags": [
             "events and parameters"
            ],
            "operationId": "donateBatch",
            "summary": "Donates every event of the batch in one transaction, or none of them.",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             }
            ],
            "requestBody": {
             "required": true,
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/DonationBatch"
               }
              }
             }
            },
            "responses": {
             "201": {
              "description": "The donations, durable, in the order sent.",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object",
                 "additionalProperties": false,
                 "required": [
                  "donations"
                 ],
                 "properties": {
                  "donations": {
                   "type": "array",
                   "items": {
                    "$ref": "#/components/schemas/Donation"
                   }
                  }
                 }
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "413": {
              "$ref": "#/components/responses/TooLarge"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "422": {
              "$ref": "#/components/responses/DateInFuture"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}/events/{event}": {
           "post": {
            "tags": [
             "events and parameters"
            ],
            "operationId": "donate",
            "summary": "Donates the event, once it is durable.",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             },
             {
              "name": "event",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "required": false,
             "content": {
              "application/json": {
               "schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                 "value": {
                  "description": "The payload's fields, typed as the event declares them.",
                  "type": "object",
                  "additionalProperties": {
                   "$ref": "#/components/schemas/Value"
                  }
                 },
                 "date": {
                  "description": "When it happened (ISO-8601); default now. At most `--max-clock-skew` (5 minutes) ahead of the server's clock.",
                  "type": "string",
                  "format": "date-time"
                 }
                }
               }
              }
             }
            },
            "responses": {
             "201": {
              "description": "The donation, durable.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Donation"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "413": {
              "$ref": "#/components/responses/TooLarge"
             },
             "422": {
              "$ref": "#/components/responses/DateInFuture"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}/parameters/{name}": {
           "put": {
            "tags": [
             "events and parameters"
            ],
            "operationId": "setParameter",
            "summary": "Sets a parameter (a transient one is accepted and not stored).",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             },
             {
              "name": "name",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "required": true,
             "content": {
              "application/json": {
               "schema": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                 "value"
                ],
                "properties": {
                 "value": {
                  "$ref": "#/components/schemas/Value"
                 }
                }
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "The parameter's new value.",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object",
                 "additionalProperties": false,
                 "required": [
                  "name",
                  "value"
                 ],
                 "properties": {
                  "name": {
                   "type": "string"
                  },
                  "value": {
                   "$ref": "#/components/schemas/Value"
                  }
                 }
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "413": {
              "$ref": "#/components/responses/TooLarge"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}/tips/{tip}/displays": {
           "post": {
            "tags": [
             "tips"
            ],
            "operationId": "recordDisplay",
            "summary": "The app showed the tip, for `milliseconds` on screen; refused (409 `tip-not-available`) for a tip that is not available.",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             },
             {
              "$ref": "#/components/parameters/tip"
             },
             {
              "$ref": "#/components/parameters/locale"
             },
             {
              "$ref": "#/components/parameters/placeholderValues"
             }
            ],
            "requestBody": {
             "required": false,
             "content": {
              "application/json": {
               "schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                 "milliseconds": {
                  "type": "integer",
                  "minimum": 0
                 }
                }
               }
              }
             }
            },
            "responses": {
             "200": {
              "$ref": "#/components/responses/TipAfterChange"
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "413": {
              "$ref": "#/components/responses/TooLarge"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}/tips/{tip}/invalidate": {
           "post": {
            "tags": [
             "tips"
            ],
            "operationId": "invalidate",
            "summary": "Invalidates the tip; one already invalidated keeps its first reason.",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             },
             {
              "$ref": "#/components/parameters/tip"
             },
             {
              "$ref": "#/components/parameters/locale"
             },
             {
              "$ref": "#/components/parameters/placeholderValues"
             }
            ],
            "requestBody": {
             "required": true,
             "content": {
              "application/json": {
               "schema": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                 "reason"
                ],
                "properties": {
                 "reason": {
                  "$ref": "#/components/schemas/InvalidationReason"
                 }
                }
               }
              }
             }
            },
            "responses": {
             "200": {
              "$ref": "#/components/responses/TipAfterChange"
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "413": {
              "$ref": "#/components/responses/TooLarge"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}/tips/{tip}/reset": {
           "post": {
            "tags": [
             "tips"
            ],
            "operationId": "resetEligibility",
            "summary": "Eligible again; displays and time on screen restart. No body.",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             },
             {
              "$ref": "#/components/parameters/tip"
             },
             {
              "$ref": "#/components/parameters/locale"
             },
             {
              "$ref": "#/components/parameters/placeholderValues"
             }
            ],
            "responses": {
             "200": {
              "$ref": "#/components/responses/TipAfterChange"
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "413": {
              "$ref": "#/components/responses/TooLarge"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}/tips/{tip}/actions/{action}": {
           "post": {
            "tags": [
             "tips"
            ],
            "operationId": "recordAction",
            "summary": "The user tapped one of the tip's actions (for analytics; it changes no status). Send an `id` made once per tap so that a retry is the same tap.",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             },
             {
              "$ref": "#/components/parameters/tip"
             },
             {
              "name": "action",
              "in": "path",
              "required": true,
              "description": "An action id the tip declares (404 `unknown-action` otherwise).",
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "required": false,
             "content": {
              "application/json": {
               "schema": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                 "id": {
                  "description": "The tap's id (1 to 128 bytes; default a new random one). The same id again is the same tap.",
                  "type": "string",
                  "minLength": 1
                 },
                 "date": {
                  "description": "When the tap happened (ISO-8601); default now. At most `--max-clock-skew` (5 minutes) ahead of the server's clock.",
                  "type": "string",
                  "format": "date-time"
                 }
                }
               }
              }
             }
            },
            "responses": {
             "201": {
              "description": "The tap, recorded and durable.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/ActionTap"
                }
               }
              }
             },
             "200": {
              "description": "A tap of this id was recorded already (a retry); nothing was added.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/ActionTap"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "413": {
              "$ref": "#/components/responses/TooLarge"
             },
             "422": {
              "$ref": "#/components/responses/DateInFuture"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/users/{user}/sync": {
           "post": {
            "tags": [
             "sync"
            ],
            "operationId": "sync",
            "summary": "Merges a device's snapshot into the user's and answers the merged snapshot.",
            "parameters": [
             {
              "$ref": "#/components/parameters/user"
             }
            ],
            "requestBody": {
             "required": false,
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/Snapshot"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "The merged snapshot.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Snapshot"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "409": {
              "$ref": "#/components/responses/Conflict"
             },
             "413": {
              "$ref": "#/components/responses/TooLarge"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/pack": {
           "get": {
            "tags": [
             "pack"
            ],
            "operationId": "getPack",
            "summary": "The rule pack's bytes, with its SHA-256 as the ETag.",
            "parameters": [
             {
              "name": "If-None-Match",
              "in": "header",
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "The pack.",
              "headers": {
               "ETag": {
                "$ref": "#/components/headers/ETag"
               }
              },
              "content": {
               "application/vnd.tipc.tippack": {
                "schema": {
                 "type": "string",
                 "contentMediaType": "application/vnd.tipc.tippack"
                }
               }
              }
             },
             "304": {
              "description": "The pack the client holds is current.",
              "headers": {
               "ETag": {
                "$ref": "#/components/headers/ETag"
               }
              }
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           },
           "put": {
            "tags": [
             "pack"
            ],
            "operationId": "replacePack",
            "summary": "Replaces the pack for every user without a restart (admin key).",
            "requestBody": {
             "required": true,
             "content": {
              "application/vnd.tipc.tippack": {
               "schema": {
                "type": "string",
                "contentMediaType": "application/vnd.tipc.tippack"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "The new pack's tag and its number of tips.",
              "headers": {
               "ETag": {
                "$ref": "#/components/headers/ETag"
               }
              },
              "content": {
               "application/json": {
                "schema": {
                 "type": "object",
                 "additionalProperties": false,
                 "required": [
                  "etag",
                  "tips"
                 ],
                 "properties": {
                  "etag": {
                   "type": "string"
                  },
                  "tips": {
                   "type": "integer",
                   "minimum": 0
                  }
                 }
                }
               }
              }
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "413": {
              "$ref": "#/components/responses/TooLarge"
             },
             "422": {
              "$ref": "#/components/responses/InvalidPack"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/report": {
           "get": {
            "tags": [
             "analytics"
            ],
            "operationId": "getReport",
            "summary": "Every experiment's arms and every other tip's figures over all users (admin key), counted in the database.",
            "description": "What `tipc report --format json` prints for this store and the current pack\n(docs/experiments.md describes each count). Assignments of another salt than the\nexperiment's current one, or of an arm the pack no longer has, count nowhere.\n",
            "parameters": [
             {
              "name": "experiment",
              "in": "query",
              "description": "Report this experiment only (and no tips).",
              "schema": {
               "type": "string"
              }
             },
             {
              "name": "at",
              "in": "query",
              "description": "Count only what is dated up to this instant (ISO-8601); default everything.",
              "schema": {
               "type": "string",
               "format": "date-time"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "The report.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Report"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/BadRequest"
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/NotFound"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/v1/openapi.json": {
           "get": {
            "tags": [
             "operations"
            ],
            "operationId": "getOpenAPI",
            "summary": "This document, as JSON.",
            "responses": {
             "200": {
              "description": "The OpenAPI document.",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             }
            }
           }
          },
          "/healthz": {
           "get": {
            "tags": [
             "operations"
            ],
            "operationId": "health",
            "summary": "Liveness; needs no key.",
            "security": [
             {}
            ],
            "responses": {
             "200": {
              "description": "The service and its store answer.",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object",
                 "additionalProperties": false,
                 "required": [
                  "status",
                  "version"
                 ],
                 "properties": {
                  "status": {
                   "const": "ok"
                  },
                  "version": {
                   "type": "string"
                  }
                 }
                }
               }
              }
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             },
             "503": {
              "$ref": "#/components/responses/Unavailable"
             }
            }
           }
          },
          "/metrics": {
           "get": {
            "tags": [
             "operations"
            ],
            "operationId": "metrics",
            "summary": "Prometheus text; routes are patterns, never user ids.",
            "responses": {
             "200": {
              "description": "The metrics.",
              "content": {
               "text/plain": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "401": {
              "$ref": "#/components/responses/Unauthorized"
             },
             "405": {
              "$ref": "#/components/responses/MethodNotAllowed"
             },
             "414": {
              "$ref": "#/components/responses/TooManyQueryArguments"
             }
            }
           }
          }
         },
         "components": {
          "securitySchemes": {
           "apiKey": {
            "type": "http",
            "scheme": "bearer",
            "description": "With `--keys`, every route but /healthz needs a key; PUT /v1/pack an admin key."
           }
          },
          "headers": {
           "ETag": {
            "description": "The pack's SHA-256, quoted.",
            "schema": {
             "type": "string"
            }
           }
          },
          "parameters": {
           "user": {
            "name": "user",
            "in": "path",
            "required": true,
            "description": "The user's id, 1 to 128 bytes of UTF-8, percent-encoded.",
            "schema": {
             "type": "string",
             "minLength": 1
            }
           },
           "tip": {
            "name": "tip",
            "in": "path",
            "required": true,
            "description": "A tip, or an instance of a keyed tip (`newTrail[42]`, percent-encoded).",
            "schema": {
             "type": "string"
            }
           },
           "locale": {
            "name": "locale",
            "in": "query",
            "description": "The texts' locale (`de-CH`, else `de`, else the pack's default).",
            "schema": {
             "type": "string"
            }
           },
           "placeholderValues": {
            "name": "value",
            "in": "query",
            "description": "A placeholder's value, as `value.NAME=TEXT`, read as its declared type.",
            "style": "form",
            "explode": true,
            "schema": {
             "type": "object",
             "additionalProperties": {
              "type": "string"
             }
            }
           }
          },
          "responses": {
           "TipAfterChange": {
            "description": "The tip after the change, as GET …/tips writes one.",
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Tip"
              }
             }
            }
           },
           "BadRequest": {
            "description": "Bad JSON, a value of the wrong type, a date outside the years 0000 to 9999, a bad user id, a path or query argument that is not UTF-8, ambiguous framing (two `Content-Length` or `Transfer-Encoding` headers, or both), a tip instance's key missing or of the wrong type.",
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           },
           "Unauthorized": {
            "description": "No key, or a key that is not known (with `--keys`).",
            "headers": {
             "WWW-Authenticate": {
              "schema": {
               "type": "string"
              }
             }
            },
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           },
           "Forbidden": {
            "description": "A client key on an admin route.",
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           },
           "NotFound": {
            "description": "An unknown route, tip, event or parameter (with a did-you-mean).",
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           },
           "MethodNotAllowed": {
            "description": "A known route with another method; `Allow` says which.",
            "headers": {
             "Allow": {
              "schema": {
               "type": "string"
              }
             }
            },
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           },
           "Conflict": {
            "description": "A display of a tip that is not available (`tip-not-available`); a synced record whose id the store holds with other content (`collision`); the user holds more records than the service allows, or the write would take them over it (`too-many-records`); a write that cannot be stamped later than the user's stored writes (`stamp-out-of-range`). Nothing was written.",
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           },
           "TooManyQueryArguments": {
            "description": "More than 64 query arguments, answered before they are parsed.",
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           },
           "TooLarge": {
            "description": "A body over the limit (64 KiB; 1 MiB for a batch of donations; 16 MiB for a pack).",
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           },
           "DateInFuture": {
            "description": "A donation dated more than `--max-clock-skew` (5 minutes by default) ahead of the server's clock (`date-in-future`); nothing was recorded.",
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           },
           "InvalidPack": {
            "description": "A pack that does not verify; nothing changed.",
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           },
           "Unavailable": {
            "description": "The store is unreachable or busy, or the server is stopping and did not run the request; sending it again is safe.",
            "headers": {
             "Retry-After": {
              "schema": {
               "type": "integer"
              }
             }
            },
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            }
           }
          },
          "schemas": {
           "Interval": {
            "description": "A 95% interval, as fractions.",
            "type": "array",
            "items": {
             "type": "number"
            },
            "minItems": 2,
            "maxItems": 2
           },
           "Counts": {
            "description": "Taps or invalidations by action id or reason.",
            "type": "object",
            "additionalProperties": {
             "type": "integer",
             "minimum": 0
            }
           },
           "Report": {
            "type": "object",
            "additionalProperties": false,
            "required": [
             "experiments",
             "tips"
            ],
            "properties": {
             "experiments": {
              "type": "array",
              "items": {
               "type": "object",
               "additionalProperties": false,
               "required": [
                "name",
                "tip",
                "goal",
                "sampleRatio",
                "arms"
               ],
               "properties": {
                "name": {
                 "type": "string"
                },
                "tip": {
                 "type": "string"
                },
                "goal": {
                 "description": "The goal as written: `EVENT within DURATION`.",
                 "type": [
                  "string",
                  "null"
                 ]
                },
                "sampleRatio": {
                 "type": "object",
                 "additionalProperties": false,
                 "required": [
                  "pValue",
                  "mismatch"
                 ],
                 "properties": {
                  "pValue": {
                   "description": "The chi-square test's p-value; null when there is nothing to test.",
                   "type": [
                    "number",
                    "null"
                   ]
                  },
                  "mismatch": {
                   "description": "p < 0.001: no verdict is given.",
                   "type": "boolean"
                  }
                 }
                },
                "arms": {
                 "description": "In declared order; the first is the baseline.",
                 "type": "array",
                 "items": {
                  "type": "object",
                  "additionalProperties": false,
                  "required": [
                   "name",
                   "weight",
                   "assigned",
                   "exposed",
                   "displays",
                   "actions",
                   "closes",
                   "converted",
                   "conversionRate",
                   "interval",
                   "tooFewUsers"
                  ],
                  "properties": {
                   "name": {
                    "type": "string"
                   },
                   "weight": {
                    "type": "integer",
                    "minimum": 0
                   },
                   "assigned": {
                    "type": "integer",
                    "minimum": 0
                   },
                   "exposed": {
                    "type": "integer",
                    "minimum": 0
                   },
                   "displays": {
                    "type": "integer",
                    "minimum": 0
                   },
                   "actions": {
                    "$ref": "#/components/schemas/Counts"
                   },
                   "closes": {
                    "type": "integer",
                    "minimum": 0
                   },
                   "converted": {
                    "type": "integer",
                    "minimum": 0
                   },
                   "conversionRate": {
                    "description": "converted / exposed; null without exposed users.",
                    "type": [
                     "number",
                     "null"
                    ]
                   },
                   "interval": {
                    "description": "The rate's Wilson interval; null without exposed users.",
                    "oneOf": [
                     {
                      "$ref": "#/components/schemas/Interval"
                     },
                     {
                      "type": "null"
                     }
                    ]
                   },
                   "difference": {
                    "description": "Against the baseline (absent for the baseline, and when either has no exposed users).",
                    "type": "object",
                    "additionalProperties": false,
                    "required": [
                     "value",
                     "interval",
                     "pValue"
                    ],
                    "properties": {
                     "value": {
                      "type": "number"
                     },
                     "interval": {
                      "$ref": "#/components/schemas/Interval"
                     },
                     "pValue": {
                      "type": "number"
                     }
                    }
                   },
                   "tooFewUsers": {
                    "description": "Fewer than 100 exposed users.",
                    "type": "boolean"
                   },
                   "verdict": {
                    "type": "string",
                    "enum": [
                     "better",
                     "worse",
                     "inconclusive",
                     "tooFewUsers"
                    ]
                   }
                  }
                 }
                }
               }
              }
             },
             "tips": {
              "description": "The tips in no experiment (none when `experiment` is given).",
              "type": "array",
              "items": {
               "type": "object",
               "additionalProperties": false,
               "required": [
                "id",
                "usersShown",
                "displays",
                "actions",
                "closes",
                "invalidations"
               ],
               "properties": {
                "id": {
                 "type": "string"
                },
                "usersShown": {
                 "type": "integer",
                 "minimum": 0
                },
                "displays": {
                 "type": "integer",
                 "minimum": 0
                },
                "actions": {
                 "$ref": "#/components/schemas/Counts"
                },
                "closes": {
                 "type": "integer",
                 "minimum": 0
                },
                "invalidations": {
                 "$ref": "#/components/schemas/Counts"
                },
                "converted": {
                 "description": "Only for a tip with a goal.",
                 "type": "integer",
                 "minimum": 0
                }
               }
              }
             }
            }
           },
           "Error": {
            "type": "object",
            "additionalProperties": false,
            "required": [
             "error"
            ],
            "properties": {
             "error": {
              "type": "object",
              "additionalProperties": false,
              "required": [
               "code",
               "message"
              ],
              "properties": {
               "code": {
                "type": "string",
                "description": "A stable code, e.g. `unknown-tip`, `wrong-parameter-type`, `store-unavailable` (docs/api.md lists them)."
               },
               "message": {
                "type": "string"
               }
              }
             }
            }
           },
           "Value": {
            "description": "A parameter's or payload field's value. Bool, Int and Double as JSON writes them; a String as a string; a Date as an ISO-8601 string; a Duration as a duration string (`90s`, `1d12h`).",
            "type": [
             "boolean",
             "integer",
             "number",
             "string"
            ]
           },
           "InvalidationReason": {
            "type": "string",
            "enum": [
             "actionPerformed",
             "tipClosed",
             "displayCountExceeded",
             "displayDurationExceeded"
            ]
           },
           "TipStatus": {
            "type": "string",
            "pattern": "^(pending|available|invalidated\\((actionPerformed|tipClosed|displayCountExceeded|displayDurationExceeded)\\))$"
           },
           "Tip": {
            "type": "object",
            "additionalProperties": false,
            "required": [
             "id",
             "status",
             "shouldDisplay",
             "title",
             "message",
             "image",
             "actions"
            ],
            "properties": {
             "id": {
              "type": "string"
             },
             "key": {
              "description": "The instance's key, for a keyed tip.",
              "type": [
               "integer",
               "string"
              ]
             },
             "experiment": {
              "description": "The experiment the tip is in, when it is in one (its title, message, image and actions are then the user's arm's).",
              "type": "string"
             },
             "arm": {
              "description": "The user's arm in `experiment`, present with it. The user id is the unit of assignment; the first answer that needs the arm stores it, and it holds while the arm exists, whatever its weight becomes. A hidden arm's tip is never displayed (`shouldDisplay` false); the first time it would have been, its exposure is recorded.",
              "type": "string"
             },
             "status": {
              "$ref": "#/components/schemas/TipStatus"
             },
             "shouldDisplay": {
              "type": "boolean"
             },
             "title": {
              "type": "string"
             },
             "message": {
              "type": [
               "string",
               "null"
              ]
             },
             "image": {
              "oneOf": [
               {
                "type": "null"
               },
               {
                "type": "object",
                "additionalProperties": false,
                "required": [
                 "symbol"
                ],
                "properties": {
                 "symbol": {
                  "type": "string"
                 }
                }
               },
               {
                "type": "object",
                "additionalProperties": false,
                "required": [
                 "asset"
                ],
                "properties": {
                 "asset": {
                  "type": "string"
                 }
                }
               }
              ]
             },
             "actions": {
              "type": "array",
              "items": {
               "type": "object",
               "additionalProperties": false,
               "required": [
                "id",
                "title"
               ],
               "properties": {
                "id": {
                 "type": "string"
                },
                "title": {
                 "type": "string"
                }
               }
              }
             },
             "placeholders": {
              "type": "array",
              "items": {
               "type": "string"
              }
             },
             "reason": {
              "description": "Present when `shouldDisplay` is false, saying why as `tipc explain` does (the first rule that does not hold, the invalidation's reason, a hidden experiment arm, the display frequency's next instant, the tip the group offers instead).",
              "type": "string"
             }
            }
           },
           "Tips": {
            "type": "object",
            "additionalProperties": false,
            "required": [
             "tips"
            ],
            "properties": {
             "tips": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/Tip"
              }
             }
            }
           },
           "GroupTip": {
            "type": "object",
            "additionalProperties": false,
            "required": [
             "group",
             "tip"
            ],
            "properties": {
             "group": {
              "type": "string"
             },
             "tip": {
              "description": "The tip the group offers now, as GET …/tips writes one; null when it offers none.",
              "oneOf": [
               {
                "type": "null"
               },
               {
                "$ref": "#/components/schemas/Tip"
               }
              ]
             }
            }
           },
           "DonationBatch": {
            "type": "object",
            "additionalProperties": false,
            "required": [
             "donations"
            ],
            "properties": {
             "donations": {
              "description": "Recorded in one transaction, or none of them; a refusal names the first bad element by its index (`donation 3` in the message). The body may be up to 1 MiB.",
              "type": "array",
              "items": {
               "type": "object",
               "additionalProperties": false,
               "required": [
                "event"
               ],
               "properties": {
                "event": {
                 "type": "string"
                },
                "value": {
                 "type": "object",
                 "additionalProperties": {
                  "$ref": "#/components/schemas/Value"
                 }
                },
                "date": {
                 "description": "When it happened (ISO-8601); default now. At most `--max-clock-skew` ahead of the server's clock.",
                 "type": "string",
                 "format": "date-time"
                }
               }
              }
             }
            }
           },
           "Donation": {
            "type": "object",
            "additionalProperties": false,
            "required": [
             "id",
             "date"
            ],
            "properties": {
             "id": {
              "type": "string"
             },
             "date": {
              "type": "string",
              "format": "date-time"
             }
            }
           },
           "ActionTap": {
            "type": "object",
            "additionalProperties": false,
            "required": [
             "id",
             "tip",
             "action",
             "date"
            ],
            "properties": {
             "id": {
              "type": "string"
             },
             "tip": {
              "description": "The tip, or the instance (`newTrail[42]`).",
              "type": "string"
             },
             "action": {
              "type": "string"
             },
             "date": {
              "type": "string",
              "format": "date-time"
             }
            }
           },
           "Snapshot": {
            "description": "`tipc store export`'s document: donations and records are merged; `tips` is derived and ignored when read.",
            "type": "object",
            "properties": {
             "donations": {
              "type": "array",
              "items": {
               "type": "object",
               "required": [
                "id",
                "event",
                "date"
               ],
               "properties": {
                "id": {
                 "type": "string"
                },
                "event": {
                 "type": "string"
                },
                "date": {
                 "type": "string",
                 "format": "date-time"
                },
                "value": {
                 "type": "object",
                 "additionalProperties": {
                  "$ref": "#/components/schemas/Value"
                 }
                }
               }
              }
             },
             "parameters": {
              "type": "object",
              "additionalProperties": {
               "$ref": "#/components/schemas/Value"
              }
             },
             "tips": {
              "type": "object",
              "additionalProperties": {
               "type": "object",
               "properties": {
                "status": {
                 "$ref": "#/components/schemas/TipStatus"
                },
                "displayCount": {
                 "type": "integer"
                },
                "displayDuration": {
                 "type": "string"
                }
               }
              }
             },
             "donationDeletions": {
              "type": "object",
              "additionalProperties": {
               "type": "string",
               "format": "date-time"
              }
             },
             "records": {
              "type": "object",
              "properties": {
               "parameters": {
                "type": "object",
                "additionalProperties": {
                 "type": "object",
                 "required": [
                  "value",
                  "stampMilliseconds",
                  "device"
                 ],
                 "properties": {
                  "value": {
                   "type": "string"
                  },
                  "stampMilliseconds": {
                   "type": "integer"
                  },
                  "device": {
                   "type": "string"
                  }
                 }
                }
               },
               "tips": {
                "type": "array",
                "items": {
                 "type": "object",
                 "required": [
                  "id",
                  "tip",
                  "kind",
                  "stampMilliseconds",
                  "device"
                 ],
                 "properties": {
                  "id": {
                   "type": "string"
                  },
                  "tip": {
                   "type": "string"
                  },
                  "key": {
                   "type": [
                    "integer",
                    "string"
                   ]
                  },
                  "dateMilliseconds": {
                   "type": "integer"
                  },
                  "kind": {
                   "enum": [
                    "display",
                    "invalidation",
                    "reset",
                    "action",
                    "exposure"
                   ]
                  },
                  "count": {
                   "type": "integer"
                  },
                  "milliseconds": {
                   "type": "integer"
                  },
                  "reason": {
                   "$ref": "#/components/schemas/InvalidationReason"
                  },
                  "action": {
                   "description": "An action tap's action id.",
                   "type": "string"
                  },
                  "experiment": {
                   "description": "An exposure's experiment.",
                   "type": "string"
                  },
                  "arm": {
                   "description": "The user's experiment arm, on a display or an exposure.",
                   "type": "string"
                  },
                  "stampMilliseconds": {
                   "type": "integer"
                  },
                  "device": {
                   "type": "string"
                  }
                 }
                }
               },
               "latestFirstDisplayMilliseconds": {
                "type": "integer"
               },
               "assignments": {
                "description": "Experiment assignments; per experiment and salt the earliest (date, then id) holds.",
                "type": "array",
                "items": {
                 "type": "object",
                 "additionalProperties": false,
                 "required": [
                  "id",
                  "experiment",
                  "salt",
                  "arm",
                  "dateMilliseconds"
                 ],
                 "properties": {
                  "id": {
                   "type": "string"
                  },
                  "experiment": {
                   "type": "string"
                  },
                  "salt": {
                   "type": "string"
                  },
                  "arm": {
                   "type": "string"
                  },
                  "dateMilliseconds": {
                   "type": "integer"
                  }
                 }
                }
               }
              }
             }
            }
           }
          }
         }
        }
        """#
}
