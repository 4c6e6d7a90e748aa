"""The SMTP relay of ployd's mail tests: aiosmtpd on a loopback port, delivering every
message it accepts into a Maildir, with the envelope's recipients in an
`X-Envelope-To:` header on top.

    /usr/bin/python3 smtp_relay.py PORT MAILDIR [--tls CERT KEY] [--auth USER PASSWORD]

--tls offers STARTTLS with the certificate and requires it before MAIL; --auth requires
that login (PLAIN or LOGIN, after STARTTLS). Prints `ready` once it listens, and runs until
killed or until its standard input closes.
"""

import mailbox
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult


class Deliver:
    def __init__(self, path):
        self.box = mailbox.Maildir(path, create=True)

    async def handle_DATA(self, server, session, envelope):
        top = "X-Envelope-To: " + ", ".join(envelope.rcpt_tos) + "\r\n"
        self.box.add(top.encode() + envelope.original_content)
        return "250 delivered"


def main(argv):
    port, path = int(argv[1]), argv[2]
    kwargs = {}
    rest = argv[3:]
    while rest:
        if rest[0] == "--tls":
            ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            ctx.load_cert_chain(rest[1], rest[2])
            kwargs["tls_context"] = ctx
            kwargs["require_starttls"] = True
            rest = rest[3:]
        elif rest[0] == "--auth":
            user, password = rest[1].encode(), rest[2].encode()

            def check(server, session, envelope, mechanism, data):
                return AuthResult(success=data.login == user and data.password == password)

            kwargs["authenticator"] = check
            kwargs["auth_required"] = True
            rest = rest[3:]
        else:
            sys.exit("unknown argument " + rest[0])
    controller = Controller(Deliver(path), hostname="127.0.0.1", port=port, **kwargs)
    controller.start()
    print("ready", flush=True)
    try:
        sys.stdin.read()
    finally:
        controller.stop()


if __name__ == "__main__":
    main(sys.argv)
