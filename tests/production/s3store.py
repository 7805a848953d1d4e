"""An S3-compatible store on loopback for the backups' tests: moto in server mode (the
test extra's moto[server]), a bucket in it, and the settings a shard's Litestream reads."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import boto3
from serving import Server, free_port

BUCKET = "scorer-backups"
KEYS = {"LITESTREAM_ACCESS_KEY_ID": "testing", "LITESTREAM_SECRET_ACCESS_KEY": "testing"}


@dataclass(frozen=True)
class Store:
    endpoint: str

    def environment(self, env: dict[str, str]) -> dict[str, str]:
        """`env` with this store's settings, and without the machine's own AWS_* settings
        (a CA bundle, a profile) that would point Litestream elsewhere."""
        return {**{k: v for k, v in env.items() if not k.startswith("AWS_")}, **self.settings()}

    def settings(self) -> dict[str, str]:
        """What a shard's settings file says of its replica (scorer.deploy.shard_env)."""
        return {"SCORER_REPLICA_BUCKET": BUCKET, "SCORER_REPLICA_ENDPOINT": self.endpoint,
                "SCORER_REPLICA_REGION": "us-east-1", **KEYS}  # fmt: skip

    def client(self):  # noqa: ANN201  (boto3's client has no static type)
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name="us-east-1",
            aws_access_key_id=KEYS["LITESTREAM_ACCESS_KEY_ID"],
            aws_secret_access_key=KEYS["LITESTREAM_SECRET_ACCESS_KEY"],
        )

    def replicated_txid(self, shard: int = 1) -> int:
        """The last transaction Litestream has copied to shard's folder of the bucket (0 for
        none yet): its objects are shard-N/<level>/<first>-<last>.ltx, in hexadecimal."""
        found = self.client().list_objects_v2(Bucket=BUCKET, Prefix=f"shard-{shard}/")
        names = [Path(item["Key"]) for item in found.get("Contents", [])]
        return max((int(n.stem.split("-")[1], 16) for n in names if n.suffix == ".ltx"), default=0)


class Moto(Server):
    """moto's server: up once its own API answers (it has no scorer probe to answer)."""

    probe = ("/moto-api/data.json", 200)


@contextmanager
def s3_store(log: Path) -> Iterator[Store]:
    """moto's S3 on 127.0.0.1 with the bucket made, its log shown if the test fails;
    stopped after."""
    port = free_port()
    moto = Path(sys.executable).with_name("moto_server")
    assert moto.exists(), "moto_server is missing: run `make test` (the test extra has it)"
    server = Moto([str(moto), "-H", "127.0.0.1", "-p", str(port)], dict(os.environ), port, log,
                  log.parent)  # fmt: skip
    try:
        server.wait_until_up()
        store = Store(server.base)
        store.client().create_bucket(Bucket=BUCKET)
        yield store
    finally:
        server.stop()
