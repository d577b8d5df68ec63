// SPDX-License-Identifier: GPL-2.0
/*
 * TCP request/response over loopback, run inside the guest of
 * mk/guest-boot.sh: a server thread listens on 127.0.0.1 (an ephemeral
 * port) and answers each connection in a thread of its own; CONNS client
 * threads each send a SIZE byte request and wait for the SIZE byte reply,
 * over and over, for SECONDS.  Only 127.0.0.1 is ever used.  Exits by
 * itself; an alarm ends it for certain a few seconds after SECONDS.
 *
 *   tcprr [-c CONNS] [-s SIZE] SECONDS
 *
 * CONNS defaults to 8 (at most 256), SIZE to 64 bytes (at most 65536).
 * The loopback interface must be up (the guest's /init brings it up).
 *
 *   gcc -O2 -g -static -pthread -o tcprr tcprr.c
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS	256
#define MAX_SIZE	65536
#define MAX_SECONDS	3600

struct client {
	pthread_t	thread;
	unsigned long	transactions;
};

static atomic_int stop;
static struct sockaddr_in server_addr;
static int listen_fd;
static int nr_conns = 8;
static size_t msg_size = 64;
static pthread_t handlers[MAX_CONNS];

static void die(const char *what)
{
	fprintf(stderr, "tcprr: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Reads or writes all of len bytes; 0 when done, -1 on error or EOF. */
static int xfer(int fd, char *buf, size_t len, int out)
{
	while (len) {
		ssize_t n = out ? send(fd, buf, len, MSG_NOSIGNAL) :
				  recv(fd, buf, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

static void nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* Answers each request with a reply of the same size until EOF. */
static void *handler(void *arg)
{
	int fd = (int)(long)arg;
	char *buf = malloc(msg_size);

	if (!buf)
		die("malloc");
	while (!xfer(fd, buf, msg_size, 0)) {
		buf[0] ^= 1;
		if (xfer(fd, buf, msg_size, 1))
			break;
	}
	close(fd);
	free(buf);
	return NULL;
}

/* Accepts the nr_conns connections, one handler thread each. */
static void *server(void *arg)
{
	(void)arg;
	for (int i = 0; i < nr_conns; i++) {
		int fd;

		do
			fd = accept(listen_fd, NULL, NULL);
		while (fd < 0 && errno == EINTR);
		if (fd < 0)
			die("accept");
		nodelay(fd);
		if (pthread_create(&handlers[i], NULL, handler, (void *)(long)fd))
			die("pthread_create");
	}
	return NULL;
}

static void *client(void *arg)
{
	struct client *c = arg;
	char *buf = calloc(1, msg_size);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (!buf)
		die("calloc");
	if (fd < 0)
		die("socket");
	if (connect(fd, (struct sockaddr *)&server_addr, sizeof(server_addr)))
		die("connect to 127.0.0.1 (is lo up?)");
	nodelay(fd);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		buf[0] = (char)c->transactions;
		if (xfer(fd, buf, msg_size, 1) || xfer(fd, buf, msg_size, 0))
			break;
		c->transactions++;
	}
	close(fd);
	free(buf);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: tcprr [-c CONNS] [-s SIZE] SECONDS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	socklen_t len = sizeof(server_addr);
	unsigned long transactions = 0;
	struct client *clients;
	pthread_t server_thread;
	struct timespec end;
	int seconds, opt, one = 1;

	while ((opt = getopt(argc, argv, "c:s:")) != -1) {
		switch (opt) {
		case 'c':
			nr_conns = atoi(optarg);
			break;
		case 's':
			msg_size = strtoul(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	seconds = atoi(argv[optind]);
	if (seconds < 1 || seconds > MAX_SECONDS || nr_conns < 1 ||
	    nr_conns > MAX_CONNS || msg_size < 1 || msg_size > MAX_SIZE)
		usage();

	/* the bound: whatever happens, the process ends a little later */
	signal(SIGALRM, SIG_DFL);
	alarm(seconds + 10);

	listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	if (listen_fd < 0)
		die("socket");
	setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	server_addr.sin_family = AF_INET;
	server_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	server_addr.sin_port = 0;
	if (bind(listen_fd, (struct sockaddr *)&server_addr, sizeof(server_addr)))
		die("bind 127.0.0.1");
	if (listen(listen_fd, MAX_CONNS))
		die("listen");
	if (getsockname(listen_fd, (struct sockaddr *)&server_addr, &len))
		die("getsockname");
	if (pthread_create(&server_thread, NULL, server, NULL))
		die("pthread_create");

	clients = calloc(nr_conns, sizeof(*clients));
	if (!clients)
		die("calloc");
	for (int i = 0; i < nr_conns; i++)
		if (pthread_create(&clients[i].thread, NULL, client, &clients[i]))
			die("pthread_create");

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
		;
	atomic_store(&stop, 1);

	for (int i = 0; i < nr_conns; i++) {
		pthread_join(clients[i].thread, NULL);
		transactions += clients[i].transactions;
	}
	/* every client has closed: each handler sees EOF and ends */
	pthread_join(server_thread, NULL);
	for (int i = 0; i < nr_conns; i++)
		pthread_join(handlers[i], NULL);
	close(listen_fd);
	printf("tcprr: %d connections, %zu byte messages, %d s: %lu transactions (%.0f/s)\n",
	       nr_conns, msg_size, seconds, transactions,
	       (double)transactions / seconds);
	return 0;
}
