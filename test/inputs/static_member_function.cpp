// Hands out ids for open files, process-wide.
class Registry {
public:
    static Registry &instance()
    {
        static Registry registry;
        return registry;
    }

    static int next_id();

    int opened = 0;

private:
    static int last_id_;
};

int Registry::last_id_ = 0;

int Registry::next_id() { return ++last_id_; }
