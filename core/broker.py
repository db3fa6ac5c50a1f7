"""kombu's Redis transport, with a channel that still closes when Redis has gone away
in the middle of a BRPOP (docs/decisions/0026-celery-redis-reconnect.md).

With celery 5.7.0 / kombu 5.7.0, a worker that holds unacknowledged messages (an
`acks_late` task running, or messages prefetched) while it waits on BRPOP exits when
Redis restarts: kombu's `Channel.close` first reads the pending BRPOP reply, which
raises on the dead connection, so `Connection.collect()` leaves the channel open;
celery then closes the connection again after the transport has been detached, and
putting the unacknowledged messages back needs the detached transport's address —
`AttributeError: 'NoneType' object has no attribute 'hostname'`, which the worker
treats as unrecoverable. Here the lost reply is let go and the channel closes on the
first call, while the transport is still attached. Remove once kombu or celery do.

Chosen by `CELERY_BROKER_TRANSPORT` for redis:// and rediss:// broker URLs."""

from kombu.transport import redis


class Channel(redis.Channel):
    def close(self):
        try:
            super().close()
        except self.connection_errors:
            if self.closed:
                raise  # failed while closing (e.g. putting messages back): as kombu does
            # The BRPOP reply died with the connection before anything was closed, and
            # reading it cleared the poll: closing again closes the rest.
            super().close()


class Transport(redis.Transport):
    Channel = Channel
