// SPDX-License-Identifier: GPL-2.0
/*
 * A scheduler stress for struct rq and struct cfs_rq, run inside the guest
 * of mk/guest-boot.sh: pairs of threads play ping-pong over two pipes (each
 * round trip is two wake-ups and two sleeps, often across CPUs), and one
 * more thread forks and reaps children in a loop (fork, exit and wait touch
 * the run queues of the CPUs they land on).  Runs for SECONDS and exits by
 * itself; an alarm ends it for certain a few seconds after that.
 *
 *   schedstress [-t THREADS] SECONDS
 *
 * THREADS is the number of ping-pong threads (default twice the online
 * CPUs; rounded up to an even number, at most 1024).
 *
 *   gcc -O2 -g -static -pthread -o schedstress schedstress.c
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS	1024
#define MAX_SECONDS	3600
#define PING		'p'
#define QUIT		'q'

struct pair {
	int		to_b[2];	/* pipe: the pinger writes, the ponger reads */
	int		to_a[2];	/* pipe: the ponger writes, the pinger reads */
	unsigned long	round_trips;
	pthread_t	a, b;
};

static atomic_int stop;
static unsigned long forks;

static void die(const char *what)
{
	fprintf(stderr, "schedstress: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int read_byte(int fd, char *c)
{
	ssize_t n;

	do
		n = read(fd, c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

static int write_byte(int fd, char c)
{
	ssize_t n;

	do
		n = write(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

/* Sends a ping, waits for the pong; on stop, sends QUIT and leaves. */
static void *pinger(void *arg)
{
	struct pair *p = arg;
	char c;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		if (write_byte(p->to_b[1], PING) || read_byte(p->to_a[0], &c))
			break;
		p->round_trips++;
	}
	write_byte(p->to_b[1], QUIT);
	return NULL;
}

/* Answers each ping until QUIT or end of file. */
static void *ponger(void *arg)
{
	struct pair *p = arg;
	char c;

	while (!read_byte(p->to_b[0], &c) && c == PING) {
		if (write_byte(p->to_a[1], PING))
			break;
	}
	return NULL;
}

static void *forker(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		pid_t pid = fork();

		if (pid < 0) {
			/* out of processes for a moment: back off */
			usleep(1000);
			continue;
		}
		if (pid == 0)
			_exit(0);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		forks++;
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: schedstress [-t THREADS] SECONDS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nr_threads = 2 * (cpus > 0 ? cpus : 1);
	unsigned long round_trips = 0;
	struct timespec end;
	struct pair *pairs;
	pthread_t fork_thread;
	int seconds, nr_pairs, opt;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		switch (opt) {
		case 't':
			nr_threads = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	seconds = atoi(argv[optind]);
	if (seconds < 1 || seconds > MAX_SECONDS)
		usage();
	if (nr_threads < 2)
		nr_threads = 2;
	if (nr_threads > MAX_THREADS)
		nr_threads = MAX_THREADS;
	nr_pairs = (nr_threads + 1) / 2;

	/* the bound: whatever happens, the process ends a little later */
	signal(SIGALRM, SIG_DFL);
	alarm(seconds + 10);

	pairs = calloc(nr_pairs, sizeof(*pairs));
	if (!pairs)
		die("calloc");
	for (int i = 0; i < nr_pairs; i++) {
		struct pair *p = &pairs[i];

		if (pipe(p->to_b) || pipe(p->to_a))
			die("pipe");
		if (pthread_create(&p->a, NULL, pinger, p) ||
		    pthread_create(&p->b, NULL, ponger, p))
			die("pthread_create");
	}
	if (pthread_create(&fork_thread, NULL, forker, NULL))
		die("pthread_create");

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
		;
	atomic_store(&stop, 1);

	for (int i = 0; i < nr_pairs; i++) {
		pthread_join(pairs[i].a, NULL);
		pthread_join(pairs[i].b, NULL);
		round_trips += pairs[i].round_trips;
	}
	pthread_join(fork_thread, NULL);
	printf("schedstress: %d threads, %ld CPUs, %d s: %lu round trips, %lu forks\n",
	       2 * nr_pairs, cpus, seconds, round_trips, forks);
	return 0;
}
