#!/usr/bin/env python3
"""Prepares a Home Assistant config directory for the real-Home-Assistant test, and prints a
long-lived access token for it; or, once it runs, puts an entity in an area.

  home-assistant-seed.py DIR PORT
  home-assistant-seed.py assign PORT TOKEN ENTITY_ID AREA_ID

Writes DIR/configuration.yaml (HTTP on 127.0.0.1:PORT, the REST API, two input booleans and
a thermostat-less, cover-less home: what Home Assistant Core runs without extra packages) and
pre-seeds its storage: an owner user with a long-lived refresh token (`.storage/auth`) and
two areas (`.storage/core.area_registry`). The token printed is the JWT Home Assistant itself
accepts for such a refresh token (HS256 over its id, signed with its key), so no onboarding,
browser or login flow is needed. Run it with the Home Assistant virtualenv's python (PyJWT).
"""
import datetime
import json
import os
import secrets
import sys
import time

import jwt

CONFIG = """homeassistant:
  name: SUSI test home
  latitude: 52.52
  longitude: 13.40
  elevation: 34
  unit_system: metric
  time_zone: UTC
  country: DE
http:
  server_host: 127.0.0.1
  server_port: {port}
api:
input_boolean:
  kitchen_light:
    name: Kitchen Light
  fan:
    name: Fan
"""


def store(key, data, minor=1):
    return {"version": 1, "minor_version": minor, "key": key, "data": data}


async def assign(port, token, entity_id, area_id):
    """Puts an entity in an area through the WebSocket API (the REST API cannot)."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"http://127.0.0.1:{port}/api/websocket") as ws:
            await ws.receive_json()
            await ws.send_json({"type": "auth", "access_token": token})
            if (await ws.receive_json()).get("type") != "auth_ok":
                sys.exit("the token was refused")
            await ws.send_json(
                {"id": 1, "type": "config/entity_registry/update", "entity_id": entity_id, "area_id": area_id})
            reply = await ws.receive_json()
            if not reply.get("success"):
                sys.exit(f"cannot put {entity_id} in {area_id}: {reply}")


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "assign":
        import asyncio

        asyncio.run(assign(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]))
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    directory, port = sys.argv[1], int(sys.argv[2])
    os.makedirs(os.path.join(directory, ".storage"), exist_ok=True)
    with open(os.path.join(directory, "configuration.yaml"), "w") as f:
        f.write(CONFIG.format(port=port))

    user_id = secrets.token_hex(16)
    token_id = secrets.token_hex(16)
    jwt_key = secrets.token_hex(64)
    now = datetime.datetime.now(datetime.timezone.utc).isoformat()
    ten_years = 10 * 365 * 24 * 3600
    auth = {
        "users": [
            {"id": user_id, "group_ids": ["system-admin"], "is_owner": True, "is_active": True, "name": "SUSI test",
             "system_generated": False, "local_only": False}
        ],
        "groups": [
            {"id": "system-admin", "name": "Administrators"},
            {"id": "system-users", "name": "Users"},
            {"id": "system-read-only", "name": "Read Only"},
        ],
        "credentials": [],
        "refresh_tokens": [
            {"id": token_id, "user_id": user_id, "client_id": None, "client_name": "susi-test", "client_icon": None,
             "token_type": "long_lived_access_token", "created_at": now, "access_token_expiration": ten_years,
             "token": secrets.token_hex(64), "jwt_key": jwt_key, "last_used_at": None, "last_used_ip": None,
             "expire_at": None, "credential_id": None, "version": None}
        ],
    }
    areas = {
        "areas": [
            {"id": area_id, "name": name, "aliases": [], "floor_id": None, "icon": None, "labels": [], "picture": None}
            for area_id, name in (("kitchen", "Kitchen"), ("bedroom", "Bedroom"))
        ]
    }
    with open(os.path.join(directory, ".storage", "auth"), "w") as f:
        json.dump(store("auth", auth), f)
    with open(os.path.join(directory, ".storage", "core.area_registry"), "w") as f:
        json.dump(store("core.area_registry", areas, minor=6), f)
    issued = int(time.time())
    print(jwt.encode({"iss": token_id, "iat": issued, "exp": issued + ten_years}, jwt_key, algorithm="HS256"))


if __name__ == "__main__":
    main()
