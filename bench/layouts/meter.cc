// SPDX-License-Identifier: GPL-2.0
/*
 * A C++ class template held by value in another: lf::Meter<long>, a
 * std::atomic counter one thread increments beside read-mostly limits
 * another thread reads, is the member of class Service, one instance
 * from new.  layout_apply.py puts the members perf affinity's --emit-c
 * prints for Meter in place of those between '// members' and '// end of
 * members'; -DHAND_FIX is the fix by hand.  Prints the seconds the
 * counter's thread took for N hits.
 */
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace lf {
template <typename T>
class Meter {
public:
	void hit() { count_.fetch_add(1, std::memory_order_relaxed); }
	bool over(T x) const { return x * scale_ > cap_ || x < floor_; }
	T count() const { return count_.load(std::memory_order_relaxed); }
private:
#ifdef HAND_FIX
	alignas(64) std::atomic<T> count_{0};
	alignas(64) T scale_ = 3;
	T cap_ = 1000000;
	T floor_ = -1;
#else
	// members
	std::atomic<T> count_{0};
	T scale_ = 3;
	T cap_ = 1000000;
	T floor_ = -1;
	// end of members
#endif
};
}

static std::atomic<bool> stop;

class Service {
public:
	void serve(long n)
	{
		for (long i = 0; i < n; i++)
			meter_.hit();
	}
	long police()
	{
		long k = 0;

		while (!stop.load(std::memory_order_relaxed))
			for (long i = 0; i < 100; i++)
				k += !meter_.over(i);
		return k;
	}
	long hits() const { return meter_.count(); }
private:
	lf::Meter<long> meter_;
};

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	Service *s = new Service;
	std::chrono::duration<double> took{};
	long policed = 0;

	std::thread reader([s, &policed] { policed = s->police(); });
	std::thread writer([s, n, &took] {
		auto start = std::chrono::steady_clock::now();

		s->serve(n);
		took = std::chrono::steady_clock::now() - start;
	});
	writer.join();
	stop = true;
	reader.join();
	printf("%ld hits, %ld policed; seconds: %.4f\n", s->hits(), policed, took.count());
	delete s;
	return 0;
}
