#!/usr/bin/env python3
"""An S3-compatible server for the tests: moto's server on 127.0.0.1, on a port the kernel picks.

Usage: s3_test_server.py SPEC.json
SPEC: {"buckets": [{"name": "photos", "versioned": false,
                    "objects": [{"key": "a b/c.jpg", "file": "/path/to/bytes"}, ...]}, ...]}

It fills the server (through boto3, without authentication), makes an IAM user allowed s3:* with
an access key and a role it assumes (temporary credentials with a session token), then turns
moto's request authentication on (INITIAL_NO_AUTH_ACTION_COUNT 0: every request after that must
carry a valid Signature Version 4 of a known key, or gets 403). Then it prints one line on standard
error, `ready {json}` with the port, both sets of credentials and the version ids of each object
(oldest first), and serves until it is stopped (SIGTERM).
"""
import json
import sys
import threading

import boto3
from moto import settings
from moto.core.authorization import ActionAuthenticatorMixin
from moto.server import ThreadedMotoServer

ALLOW_S3 = json.dumps({
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}],
})


def main():
    with open(sys.argv[1]) as spec_file:
        spec = json.load(spec_file)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    _, port = server.get_host_and_port()
    endpoint = f"http://127.0.0.1:{port}"
    setup = dict(endpoint_url=endpoint, region_name="us-east-1",
                 aws_access_key_id="setup", aws_secret_access_key="setup")
    s3 = boto3.client("s3", **setup)
    versions = {}
    for bucket in spec.get("buckets", []):
        s3.create_bucket(Bucket=bucket["name"])
        if bucket.get("versioned"):
            s3.put_bucket_versioning(Bucket=bucket["name"], VersioningConfiguration={"Status": "Enabled"})
        for item in bucket.get("objects", []):
            with open(item["file"], "rb") as body:
                answer = s3.put_object(Bucket=bucket["name"], Key=item["key"], Body=body.read())
            versions.setdefault(f"{bucket['name']}/{item['key']}", []).append(answer.get("VersionId"))

    iam = boto3.client("iam", **setup)
    iam.create_user(UserName="vignette")
    iam.put_user_policy(UserName="vignette", PolicyName="s3", PolicyDocument=ALLOW_S3)
    key = iam.create_access_key(UserName="vignette")["AccessKey"]
    trust = json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]})
    role = iam.create_role(RoleName="vignette-reader", AssumeRolePolicyDocument=trust)["Role"]
    iam.put_role_policy(RoleName="vignette-reader", PolicyName="s3", PolicyDocument=ALLOW_S3)
    sts = boto3.client("sts", **setup)
    temporary = sts.assume_role(RoleArn=role["Arn"], RoleSessionName="tests")["Credentials"]

    # From here on every request is authenticated (moto's server reads this setting per request).
    settings.INITIAL_NO_AUTH_ACTION_COUNT = 0
    ActionAuthenticatorMixin.request_count = 0

    ready = {
        "port": port,
        "accessKeyID": key["AccessKeyId"], "secretAccessKey": key["SecretAccessKey"],
        "temporary": {"accessKeyID": temporary["AccessKeyId"], "secretAccessKey": temporary["SecretAccessKey"],
                      "sessionToken": temporary["SessionToken"]},
        "versions": versions,
    }
    print("ready " + json.dumps(ready), file=sys.stderr, flush=True)
    threading.Event().wait()  # until SIGTERM ends the process


if __name__ == "__main__":
    main()
