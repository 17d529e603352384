import java.util.List;
import java.util.ArrayList;

public class Main {
    public static void main(String[] args) {
        List<String> names = new ArrayList<>();
        System.out.println(count(names));
    }

    static int count(List<String> names) {
        return names.size();
    }
}
