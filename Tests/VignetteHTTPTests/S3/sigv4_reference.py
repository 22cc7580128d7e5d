#!/usr/bin/env python3
"""botocore's Signature Version 4 for the requests the S3 tests describe: the reference that
Vignette's SigV4Signer is compared with (Tests/VignetteHTTPTests/S3/SigV4ReferenceTests.swift).

Reads a JSON list of cases from the file named as its argument (or standard input), each:
  {"name", "operation": "GetObject" | "ListObjectsV2", "bucket", "key"?, "versionId"?,
   "prefix"?, "continuationToken"?, "region", "endpoint"? (path-style when given),
   "accessKeyID", "secretAccessKey", "sessionToken"?, "time": seconds since 1970 (UTC)}
and prints a JSON list of what a real botocore S3 client sent for each (nothing goes on the
network: the request is captured before it is sent): {"name", "url", "headers": {lowercase: value}}.

Run with the venv `make test` makes (Scripts/test-venv.sh): .venv-test/bin/python sigv4_reference.py cases.json
"""
import datetime
import json
import sys

import botocore.auth
import botocore.session
from botocore.awsrequest import AWSResponse
from botocore.config import Config


class Captured(Exception):
    pass


def main():
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as cases_file:
            cases = json.load(cases_file)
    else:
        cases = json.load(sys.stdin)
    results = []
    for case in cases:
        moment = datetime.datetime.fromtimestamp(case["time"], datetime.timezone.utc).replace(tzinfo=None)
        # botocore asks this for the signing time; a fixed one makes the signature repeatable.
        botocore.auth.get_current_datetime = lambda *_, moment=moment, **__: moment
        session = botocore.session.get_session()
        config = Config(
            s3={
                "addressing_style": "path" if case.get("endpoint") else "auto",
                # s3.us-east-1.amazonaws.com, as for every other region, not the global s3.amazonaws.com.
                "us_east_1_regional_endpoint": "regional",
            },
            retries={"max_attempts": 1, "mode": "standard"},
            # The default (since botocore 1.36) asks for checksums with `x-amz-checksum-mode`;
            # Vignette does not, and neither does botocore with this setting.
            response_checksum_validation="when_required",
            request_checksum_calculation="when_required",
        )
        client = session.create_client(
            "s3",
            region_name=case["region"],
            endpoint_url=case.get("endpoint"),
            aws_access_key_id=case["accessKeyID"],
            aws_secret_access_key=case["secretAccessKey"],
            aws_session_token=case.get("sessionToken"),
            config=config,
        )
        captured = {}

        def capture(request, **_):
            captured["url"] = request.url
            captured["headers"] = {k.lower(): (v.decode() if isinstance(v, bytes) else v) for k, v in request.headers.items()}
            return AWSResponse(request.url, 200, {}, None)

        client.meta.events.register("before-send.s3", capture)
        try:
            if case["operation"] == "GetObject":
                params = {"Bucket": case["bucket"], "Key": case["key"]}
                if case.get("versionId"):
                    params["VersionId"] = case["versionId"]
                try:
                    client.get_object(**params)
                except Exception:
                    pass  # the empty 200 does not parse as an object; the request was captured
            else:
                params = {"Bucket": case["bucket"]}
                if case.get("prefix") is not None:
                    params["Prefix"] = case["prefix"]
                if case.get("continuationToken"):
                    params["ContinuationToken"] = case["continuationToken"]
                try:
                    client.list_objects_v2(**params)
                except Exception:
                    pass
        finally:
            client.close()
        if "url" not in captured:
            raise SystemExit(f"botocore sent no request for {case['name']}")
        results.append({"name": case["name"], "url": captured["url"], "headers": captured["headers"]})
    json.dump(results, sys.stdout, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
